import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signedHeaders } from '../../../src/infrastructure/webhooks/webhook-signature';

/** Our signatures judged by the Standard Webhooks reference library, as a receiver would. */
describe('webhook signatures', () => {
  const body = JSON.stringify({ type: 'article.published', timestamp: '2026-11-27T12:00:00.000Z', data: { id: 7 } });

  it('are accepted by the standardwebhooks library, and refused once the body or id changes', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'evt_1', new Date(), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('7', '8'), { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });

  it('carry one signature per secret during a rotation: the old and the new both verify', () => {
    const [old, renewed] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders([old, renewed], 'evt_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [old, renewed]) expect(new Webhook(secret).verify(body, { ...headers })).toBeTruthy();
  });

  it('are refused by the library when the attempt is older than its tolerance (5 minutes)', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'evt_1', new Date(Date.now() - 6 * 60_000), body);
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });
});
