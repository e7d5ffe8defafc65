import { claimsContract } from './claims';
import { deliveriesLogContract } from './deliveries-log';
import { recordedEventsContract } from './recorded-events';
import { schedulesContract } from './schedules';
import { type OpenWebhookContractSubject, sharedWebhookSubject } from './subject';
import { subscriptionsContract } from './subscriptions';

export type { OpenWebhookContractSubject, WebhookContractSubject } from './subject';

/**
 * Every expectation of the WebhookRepository port, and of the outbox the ArticleRepository's
 * writes fill (WriteEvents), one behaviour to a file. Each adapter's test file calls this
 * unchanged with its two repositories over one storage.
 */
export function webhookRepositoryContract(name: string, open: OpenWebhookContractSubject): void {
  describe(`WebhookRepository contract: ${name}`, () => {
    const shared = sharedWebhookSubject(open);
    afterAll(() => shared.closeShared());

    subscriptionsContract(shared);
    recordedEventsContract(shared);
    schedulesContract(shared);
    claimsContract(shared);
    deliveriesLogContract(shared);
  });
}
