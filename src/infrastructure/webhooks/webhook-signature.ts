import { createHmac, randomBytes } from 'node:crypto';

/** A subscription's signing secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The headers of one delivery attempt (Standard Webhooks). */
export interface WebhookHeaders {
  /** The event's id: the same on every attempt, so that a receiver drops duplicates. */
  readonly 'webhook-id': string;
  /** This attempt's time, in Unix seconds. */
  readonly 'webhook-timestamp': string;
  /** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, under each secret (two during a rotation). */
  readonly 'webhook-signature': string;
}

/**
 * Signs one attempt to send `body` (the exact bytes sent) under each secret; a receiver accepts
 * the attempt when any signature matches (so a rotation signs with the old and the new secret).
 */
export function signedHeaders(
  secrets: readonly [string, ...string[]],
  id: string,
  at: Date,
  body: string,
): WebhookHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  });
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
