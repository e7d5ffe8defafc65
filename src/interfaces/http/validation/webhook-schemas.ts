import { z } from 'zod';
import type { DeliveryPosition } from '../../../application';
import { WEBHOOK_RULES } from '../../../application';
import { WEBHOOK_EVENT_TYPES } from '../../../domain';
import { decimalIntegerPattern, STORABLE_TEXT } from './documented-patterns';
import { MAX_PAGE_LIMIT, once, pageLimit } from './list-query';

/**
 * The webhook routes' bodies and parameters. The URL's rules (scheme, address) and the events'
 * are the use case's to check, so that every storage and caller meets one set of messages.
 */
export const createWebhookBody = z
  .strictObject({
    url: z.string().meta({
      description: 'Where events are POSTed: http or https, and a host that is, and resolves to, only public addresses',
      example: 'https://hooks.example.com/blog',
      override: { maxLength: WEBHOOK_RULES.urlMaxLength },
    }),
    events: z
      .array(z.string())
      .optional()
      .meta({
        description: 'The events to send (a name given twice counts once); absent: all four',
        example: ['article.published'],
        override: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
        },
      }),
    description: z
      .string()
      .meta({ override: { maxLength: WEBHOOK_RULES.descriptionMaxLength, pattern: STORABLE_TEXT } })
      .nullable()
      .optional()
      .meta({
        description: `Yours, up to ${WEBHOOK_RULES.descriptionMaxLength} characters`,
        example: 'Rebuild the site',
      }),
  })
  .meta({
    id: 'CreateWebhookBody',
    example: { url: 'https://hooks.example.com/blog', events: ['article.published'], description: 'Rebuild the site' },
  });

const webhookId = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: 'The id `POST /webhook/create` answered', example: 'w4b8d2f6h0k4m8p2r6t0v4x8' });

export const deleteWebhookBody = z
  .strictObject({ id: webhookId })
  .meta({ id: 'DeleteWebhookBody', example: { id: 'w4b8d2f6h0k4m8p2r6t0v4x8' } });

export const webhookPathParams = z.object({ id: webhookId });

/** `<created at, epoch ms>.<event id>`, base64url: where the next page of deliveries starts. */
const CURSOR = /^([0-9]{1,16})\.([a-z0-9_]{1,64})$/;

export function encodeDeliveryCursor(position: DeliveryPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position.eventId}`).toString('base64url');
}

const cursor = z.string().transform((raw, context) => {
  const match = /^[A-Za-z0-9_-]{1,128}$/.test(raw)
    ? CURSOR.exec(Buffer.from(raw, 'base64url').toString('latin1'))
    : null;
  if (match) return { createdAt: new Date(Number(match[1])), eventId: match[2] as string };
  context.addIssue({
    code: 'custom',
    message: "is not a cursor this service gave (take it from the previous page's Link header)",
    input: raw,
  });
  return z.NEVER;
});

/** The deliveries log's parameters; any other parameter is ignored. */
export const deliveriesQuery = z.object({
  limit: once(pageLimit, {
    description: `At most this many deliveries (1 to ${MAX_PAGE_LIMIT}; default 20)`,
    schema: { type: 'string', pattern: decimalIntegerPattern(MAX_PAGE_LIMIT), example: '20' },
  }),
  before: once(cursor, {
    description: "Only deliveries older than this position, as the previous page's `Link` gives it; opaque",
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
  }),
});

export type CreateWebhookBody = z.output<typeof createWebhookBody>;
export type DeleteWebhookBody = z.output<typeof deleteWebhookBody>;
export type DeliveriesQuery = z.output<typeof deliveriesQuery>;
