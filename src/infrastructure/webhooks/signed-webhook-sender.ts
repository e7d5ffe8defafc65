import type { SendResult, WebhookSender, WebhookUrlCheck } from '../../application';
import type { WebhookSubscription } from '../../domain';
import type { PinnedHttpTransport } from './pinned-http-transport';
import { signedHeaders } from './webhook-signature';

/** A 2xx within this delivers (api.md "Webhooks"); the claim's lease is longer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Deliveries signed by Standard Webhooks (webhook-signature.ts) and sent by the transport that
 * connects only to addresses it checked (pinned-http-transport.ts). The same transport's checks
 * judge a URL when a subscription is made.
 */
export class SignedWebhookSender implements WebhookSender, WebhookUrlCheck {
  constructor(
    private readonly transport: PinnedHttpTransport,
    private readonly timeoutMs = ATTEMPT_TIMEOUT_MS,
  ) {}

  async send(subscription: WebhookSubscription, eventId: string, body: string, at: Date): Promise<SendResult> {
    const outcome = await this.transport.deliver({
      url: subscription.url,
      headers: {
        ...signedHeaders([subscription.secret], eventId, at, body),
        'user-agent': 'blog-article-api-webhooks',
      },
      body,
      timeoutMs: this.timeoutMs,
    });
    return outcome.kind === 'answered' ? { status: outcome.status } : { error: outcome.reason };
  }

  async problemWith(text: string): Promise<string | null> {
    if (!URL.canParse(text)) return 'must be an absolute http or https URL';
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
    if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
    return this.transport.refusalOf(text);
  }
}
