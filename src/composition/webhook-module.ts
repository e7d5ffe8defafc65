import { randomUUID } from 'node:crypto';
import { ContainerModule } from 'inversify';
import {
  type Clock,
  CreateWebhook,
  DeleteWebhook,
  DeliverWebhooks,
  ListWebhookDeliveries,
  ListWebhooks,
  type RecordedWriteEvents,
  type WebhookRepository,
} from '../application';
import type { AppConfig } from '../infrastructure/config/config';
import type { Logger } from '../infrastructure/logging/logger';
import { webhookMetrics } from '../infrastructure/observability/webhook-metrics';
import { PinnedHttpTransport } from '../infrastructure/webhooks/pinned-http-transport';
import { ATTEMPT_TIMEOUT_MS, SignedWebhookSender } from '../infrastructure/webhooks/signed-webhook-sender';
import { newWebhookSecret } from '../infrastructure/webhooks/webhook-signature';
import { WebhookController } from '../interfaces/http/controllers/webhook-controller';
import { webhookEventBody } from '../interfaces/http/webhook-event-body';
import { TOKENS } from './tokens';

/**
 * A subscription reaches every instance's writes within this (RecordedWriteEvents): each reads the
 * subscriptions every WEBHOOK_PRESENCE_REFRESH_MS, and trusts a reading that found none this long.
 */
export const WEBHOOK_PRESENCE_FRESH_MS = 1_000;

/** Per instance: attempts in flight to one subscription, and in all (DeliverWebhooks). */
const DELIVERY_LIMITS = { perSubscription: 2, total: 16, leaseMs: ATTEMPT_TIMEOUT_MS + 20_000 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Subscriptions, their routes, and the delivery of the outbox's events. */
export function webhookModule(config: AppConfig): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(SignedWebhookSender).toConstantValue(
      new SignedWebhookSender(new PinnedHttpTransport(config.webhookPrivateNetworks)),
    );
    // One process alone (the memory store, SQLite without workers) knows its subscriptions at once.
    const alone = config.database.kind !== 'postgres' && config.workers === 1;
    bind(CreateWebhook)
      .toResolvedValue(
        (webhooks: WebhookRepository, clock: Clock, sender: SignedWebhookSender, writeEvents: RecordedWriteEvents) =>
          new CreateWebhook(webhooks, clock, {
            urls: sender,
            newId: () => `wh_${randomUUID().replaceAll('-', '')}`,
            newSecret: newWebhookSecret,
            writeEvents,
            settle: () => (alone ? Promise.resolve() : sleep(WEBHOOK_PRESENCE_FRESH_MS)),
          }),
        [TOKENS.WebhookRepository, TOKENS.Clock, SignedWebhookSender, TOKENS.WriteEvents],
      )
      .inSingletonScope();
    const onWebhooks = <T>(type: new (webhooks: WebhookRepository) => T) =>
      bind(type)
        .toResolvedValue((webhooks: WebhookRepository) => new type(webhooks), [TOKENS.WebhookRepository])
        .inSingletonScope();
    onWebhooks(ListWebhooks);
    onWebhooks(DeleteWebhook);
    onWebhooks(ListWebhookDeliveries);
    bind(WebhookController)
      .toResolvedValue(
        (create: CreateWebhook, list: ListWebhooks, remove: DeleteWebhook, deliveries: ListWebhookDeliveries) =>
          new WebhookController({ create, list, delete: remove, deliveries }),
        [CreateWebhook, ListWebhooks, DeleteWebhook, ListWebhookDeliveries],
      )
      .inSingletonScope();
    bind(TOKENS.WebhookMetrics)
      .toResolvedValue(
        (webhooks: WebhookRepository, clock: Clock) => webhookMetrics(webhooks, clock),
        [TOKENS.WebhookRepository, TOKENS.Clock],
      )
      .inSingletonScope();
    bind(DeliverWebhooks)
      .toResolvedValue(
        (
          webhooks: WebhookRepository,
          sender: SignedWebhookSender,
          clock: Clock,
          metrics: ReturnType<typeof webhookMetrics>,
          logger: Logger,
        ) =>
          new DeliverWebhooks(
            webhooks,
            sender,
            clock,
            webhookEventBody,
            { ...DELIVERY_LIMITS, retryDelaysMs: config.webhookRetryDelaysMs },
            {
              random: Math.random,
              observe: metrics.observe,
              onError: (error) =>
                logger.warn({ err: error }, 'a webhook attempt could not be recorded; it is made again'),
            },
          ),
        [TOKENS.WebhookRepository, SignedWebhookSender, TOKENS.Clock, TOKENS.WebhookMetrics, TOKENS.Logger],
      )
      .inSingletonScope();
  });
}
