import type { WebhookController } from './controllers/webhook-controller';
import { defineRoute, type ResponseHeader, type RouteDefinition } from './route-definition';
import { createWebhookBody, deleteWebhookBody, deliveriesQuery, webhookPathParams } from './validation/webhook-schemas';
import { createdWebhookJson, deliveryJson, webhookJson } from './webhook-presenters';

const ADMINS_ONLY = { status: 403, when: 'the key is not an admin' } as const;
const NO_CREDENTIAL = {
  status: 401,
  when: 'no admin key or API token, including while neither exists',
} as const;
const NO_SUCH_WEBHOOK = { status: 404, when: 'no webhook has this id' } as const;

const nextDeliveries: ResponseHeader = {
  description: 'Only on a full page: the URL of the next page of older deliveries',
  schema: {
    type: 'string',
    pattern: '^</webhook/[^>]+/deliveries\\?limit=[1-9][0-9]*&before=[A-Za-z0-9_-]+>; rel="next"$',
    example: '</webhook/w4b8d2f6h0k4m8p2r6t0v4x8/deliveries?limit=20&before=MTc5NjAwMDAwMDAwMC5ldnRfMQ>; rel="next"',
  },
  required: false,
};

/** The admins' routes that subscribe URLs to events, list and end subscriptions, and show deliveries. */
export function webhookRouteTable(webhooks: WebhookController): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/webhook/create',
      operationId: 'createWebhook',
      group: 'Webhooks',
      summary: 'Subscribe a URL to events',
      description:
        'Events are POSTed to the URL, signed by Standard Webhooks under the secret in this answer (shown this once). ' +
        'The URL is checked now and at every connection: only public addresses.',
      write: true,
      body: createWebhookBody,
      status: 201,
      data: createdWebhookJson,
      failures: [NO_CREDENTIAL, ADMINS_ONLY],
      handle: ({ body, actor }) => webhooks.create(body, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook',
      operationId: 'listWebhooks',
      group: 'Webhooks',
      summary: 'List the subscriptions',
      description: 'Every subscription, oldest first; never a secret.',
      write: false,
      status: 200,
      data: webhookJson.array(),
      failures: [NO_CREDENTIAL, ADMINS_ONLY],
      handle: ({ actor }) => webhooks.list(actor),
    }),
    defineRoute({
      method: 'post',
      path: '/webhook/delete',
      operationId: 'deleteWebhook',
      group: 'Webhooks',
      summary: 'End a subscription',
      description: 'Its pending deliveries are never attempted, and its log goes with it. Answers it as it was.',
      write: true,
      body: deleteWebhookBody,
      status: 200,
      data: webhookJson,
      failures: [NO_CREDENTIAL, ADMINS_ONLY, NO_SUCH_WEBHOOK],
      handle: ({ body, actor }) => webhooks.delete(body, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      group: 'Webhooks',
      summary: "A subscription's deliveries, newest first",
      description:
        'Each event sent to it: attempts, state (pending, delivered, failed), the last status or error, and when it ' +
        'is tried next. A full page has a `Link` to the next.',
      write: false,
      params: webhookPathParams,
      query: deliveriesQuery,
      status: 200,
      data: deliveryJson.array(),
      responseHeaders: { Link: nextDeliveries },
      failures: [NO_CREDENTIAL, ADMINS_ONLY, NO_SUCH_WEBHOOK],
      handle: ({ params, query, actor }) => webhooks.deliveries(params.id, query, actor),
    }),
  ];
}
