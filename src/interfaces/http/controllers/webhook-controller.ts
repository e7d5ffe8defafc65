import type { CreateWebhook, DeleteWebhook, ListWebhookDeliveries, ListWebhooks } from '../../../application';
import type { Actor } from '../../../domain';
import { WithHeaders } from '../response';
import {
  type CreateWebhookBody,
  type DeleteWebhookBody,
  type DeliveriesQuery,
  encodeDeliveryCursor,
} from '../validation/webhook-schemas';
import {
  type CreatedWebhookJson,
  presentCreatedWebhook,
  presentDelivery,
  presentWebhook,
  type WebhookJson,
} from '../webhook-presenters';

/** Deliveries per page when `limit` is not given. */
const DEFAULT_DELIVERIES_PAGE = 20;

export interface WebhookUseCases {
  create: CreateWebhook;
  list: ListWebhooks;
  delete: DeleteWebhook;
  deliveries: ListWebhookDeliveries;
}

/** The admins' webhook routes: subscribe (the secret shown once), list, delete, read the deliveries log. */
export class WebhookController {
  constructor(private readonly useCases: WebhookUseCases) {}

  async create(body: CreateWebhookBody, actor: Actor): Promise<CreatedWebhookJson> {
    return presentCreatedWebhook(await this.useCases.create.execute(body, actor));
  }

  async list(actor: Actor): Promise<WebhookJson[]> {
    return (await this.useCases.list.execute(actor)).map(presentWebhook);
  }

  async delete(body: DeleteWebhookBody, actor: Actor): Promise<WebhookJson> {
    return presentWebhook(await this.useCases.delete.execute(body.id, actor));
  }

  async deliveries(id: string, query: DeliveriesQuery, actor: Actor): Promise<WithHeaders> {
    const limit = query.limit ?? DEFAULT_DELIVERIES_PAGE;
    const deliveries = await this.useCases.deliveries.execute(id, limit, query.before, actor);
    const last = deliveries[deliveries.length - 1];
    const next =
      last && deliveries.length === limit
        ? encodeDeliveryCursor({ createdAt: last.createdAt, eventId: last.eventId })
        : null;
    const headers: Record<string, string> = next
      ? { Link: `</webhook/${encodeURIComponent(id)}/deliveries?limit=${limit}&before=${next}>; rel="next"` }
      : {};
    return new WithHeaders(deliveries.map(presentDelivery), headers);
  }
}
