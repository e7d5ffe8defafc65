import type { WebhookSubscription } from '../../domain';

/** What one attempt got: the receiver's status, or why there was none (timeout, refused, address not allowed). */
export type SendResult = { readonly status: number } | { readonly error: string };

/**
 * Sends one attempt of an event: POSTs `body` to the subscription's URL with the Standard
 * Webhooks headers (`webhook-id` the event's id, `webhook-timestamp` of `at`, `webhook-signature`
 * by the subscription's secret), connecting only to an address it is allowed to reach, following
 * no redirect, giving up after the attempt's time limit.
 */
export interface WebhookSender {
  send(subscription: WebhookSubscription, eventId: string, body: string, at: Date): Promise<SendResult>;
}

/** Whether a webhook URL may be used: null when it may, or why not (a 400 naming `url`). */
export interface WebhookUrlCheck {
  problemWith(url: string): Promise<string | null>;
}
