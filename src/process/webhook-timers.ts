import type { DeliverWebhooks, RecordedWriteEvents } from '../application';
import type { Logger } from '../infrastructure/logging/logger';
import { type RepeatingTask, startRepeating } from '../infrastructure/scheduling/repeating-task';

/**
 * How often each instance reads whether any subscription exists (RecordedWriteEvents: a
 * subscription reaches every instance's writes within WEBHOOK_PRESENCE_FRESH_MS), and looks for
 * due deliveries: an event's first attempt comes well within 5 s of its write or its time.
 */
const PRESENCE_REFRESH_MS = 400;
const DELIVERY_ROUND_MS = 500;

/** The two timers of webhooks; a failure is logged once, and again only after a success. */
export function startWebhookTimers(
  writeEvents: RecordedWriteEvents,
  deliveries: DeliverWebhooks,
  logger: Logger,
): RepeatingTask[] {
  return [
    repeatLoggingOnce(
      () => writeEvents.refresh(),
      PRESENCE_REFRESH_MS,
      logger,
      'webhook subscriptions could not be read; writes record their events meanwhile',
    ),
    repeatLoggingOnce(
      () => deliveries.round(),
      DELIVERY_ROUND_MS,
      logger,
      'due webhook deliveries could not be claimed; trying again',
    ),
  ];
}

function repeatLoggingOnce(task: () => Promise<unknown>, intervalMs: number, logger: Logger, warning: string) {
  let failing = false;
  return startRepeating(
    async () => {
      await task();
      failing = false;
    },
    intervalMs,
    (error) => {
      if (!failing) logger.warn({ err: error }, warning);
      failing = true;
    },
  );
}
