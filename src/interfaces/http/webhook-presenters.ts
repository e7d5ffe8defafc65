import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookSubscription } from '../../domain';

const EXAMPLE_TIME = '2026-11-27T10:00:00.000Z';
const EXAMPLE_WEBHOOK = {
  id: 'w4b8d2f6h0k4m8p2r6t0v4x8',
  url: 'https://hooks.example.com/blog',
  events: ['article.published', 'article.updated', 'article.unpublished', 'article.deleted'],
  description: 'Rebuild the static site',
  createdAt: EXAMPLE_TIME,
};

const webhookShape = {
  id: z.string().meta({ example: EXAMPLE_WEBHOOK.id }),
  url: z.string().meta({ example: EXAMPLE_WEBHOOK.url }),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ example: EXAMPLE_WEBHOOK.events }),
  description: z.string().nullable().meta({ example: EXAMPLE_WEBHOOK.description }),
  createdAt: z.iso.datetime().meta({ example: EXAMPLE_TIME }),
};

export const webhookJson = z
  .object(webhookShape)
  .meta({ id: 'Webhook', description: 'A subscription, never its secret', example: EXAMPLE_WEBHOOK });

const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9o8LrW8NJIk=';

export const createdWebhookJson = z
  .object({
    ...webhookShape,
    secret: z.string().meta({
      description: 'Signs every delivery (Standard Webhooks, `whsec_` and base64): shown this once',
      example: EXAMPLE_SECRET,
    }),
  })
  .meta({ id: 'CreatedWebhook', example: { ...EXAMPLE_WEBHOOK, secret: EXAMPLE_SECRET } });

const EXAMPLE_DELIVERY = {
  eventId: 'evt_p2r6t0v4x8b2d6f0h4k8m2q6',
  type: 'article.published',
  attempts: 1,
  state: 'delivered',
  lastStatus: 204,
  lastError: null,
  nextAttemptAt: null,
  deliveredAt: EXAMPLE_TIME,
};

export const deliveryJson = z
  .object({
    eventId: z
      .string()
      .meta({ description: 'The event, as `webhook-id` carries it', example: EXAMPLE_DELIVERY.eventId }),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    attempts: z.number().int().meta({ example: 1 }),
    state: z.enum(['pending', 'delivered', 'failed']),
    lastStatus: z.number().int().nullable().meta({ description: "The last attempt's HTTP status", example: 204 }),
    lastError: z.string().nullable().meta({ description: 'Why the last attempt failed', example: null }),
    nextAttemptAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'While pending: when it is next tried', example: null }),
    deliveredAt: z.iso.datetime().nullable().meta({ example: EXAMPLE_TIME }),
  })
  .meta({ id: 'WebhookDelivery', example: EXAMPLE_DELIVERY });

export type WebhookJson = z.output<typeof webhookJson>;
export type CreatedWebhookJson = z.output<typeof createdWebhookJson>;
export type DeliveryJson = z.output<typeof deliveryJson>;

export function presentWebhook(subscription: WebhookSubscription): WebhookJson {
  return {
    id: subscription.id,
    url: subscription.url,
    events: [...subscription.events],
    description: subscription.description,
    createdAt: subscription.createdAt.toISOString(),
  };
}

export function presentCreatedWebhook(subscription: WebhookSubscription): CreatedWebhookJson {
  return { ...presentWebhook(subscription), secret: subscription.secret };
}

export function presentDelivery(delivery: WebhookDelivery): DeliveryJson {
  return {
    eventId: delivery.eventId,
    type: delivery.type,
    attempts: delivery.attempts,
    state: delivery.state,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
  };
}
