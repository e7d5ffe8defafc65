import { Counter, Gauge, Registry } from 'prom-client';
import type { AttemptOutcome, Clock, WebhookRepository } from '../../application';

/**
 * The deliveries' metrics, served on /metrics: attempts by outcome (this instance's), and, read
 * from the storage at each scrape, the pending deliveries and how long the oldest due one has
 * waited (every instance reports the same figures: take one, not their sum).
 */
export function webhookMetrics(webhooks: WebhookRepository, clock: Clock) {
  const registry = new Registry();
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by this instance, by outcome (delivered, retry, failed, gone: a 410 ended the subscription)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // A scrape while the database is away keeps the last figures: /metrics answers all the same.
  let last: Awaited<ReturnType<WebhookRepository['pendingSummary']>> = { pending: 0, oldestDueAt: null };
  const summary = async () => {
    last = await webhooks.pendingSummary(clock.now()).catch(() => last);
    return last;
  };
  new Gauge({
    name: 'webhook_deliveries_pending',
    help: 'Webhook deliveries not yet delivered nor failed, due or not (scheduled articles included)',
    registers: [registry],
    async collect() {
      this.set((await summary()).pending);
    },
  });
  new Gauge({
    name: 'webhook_oldest_due_delivery_age_seconds',
    help: 'How long the oldest due webhook delivery has waited for its attempt (0: none waits)',
    registers: [registry],
    async collect() {
      const { oldestDueAt } = await summary();
      this.set(oldestDueAt === null ? 0 : Math.max(0, (clock.now().getTime() - oldestDueAt.getTime()) / 1000));
    },
  });
  return { registry, observe: (outcome: AttemptOutcome) => attempts.inc({ outcome }) };
}
