import { jsonOf, RawHttpClient } from '../raw-http';
import { type ArticleState, bodyFor } from './article-state';

/** A create the service answered 201, and when (Date.now(): comparable with another process's clock) the answer came. */
export interface AcknowledgedCreate {
  readonly id: number;
  readonly state: ArticleState;
  readonly acknowledgedAt: number;
}

/**
 * Clients that create articles back to back until stopped, each with content of its own and a
 * tag per client, and record every 201 with the moment it arrived, so that a check can ask
 * which creates were acknowledged before a given moment. Any other answer is a failure.
 */
export class CreatingClients {
  readonly acknowledged: AcknowledgedCreate[] = [];
  readonly failures: string[] = [];
  private readonly http: RawHttpClient;
  private stopping = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    baseUrl: string,
    private readonly clients: number,
  ) {
    this.http = new RawHttpClient(baseUrl, { maxSockets: clients, deadlineMs: 15_000 });
  }

  start(): this {
    this.running = Promise.all(Array.from({ length: this.clients }, (_, client) => this.client(client))).then(() => {});
    return this;
  }

  /** The creates answered 201 before `moment` (Date.now() milliseconds). */
  acknowledgedBefore(moment: number): AcknowledgedCreate[] {
    // Both are whole milliseconds, rounded down: an answer in an earlier millisecond came earlier.
    return this.acknowledged.filter((create) => create.acknowledgedAt < moment);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
    this.http.close();
  }

  private async client(client: number): Promise<void> {
    for (let sequence = 0; !this.stopping; sequence++) {
      const state: ArticleState = {
        title: `c${client} n${sequence}`,
        content: `created by client ${client} as number ${sequence}`,
        visible: true,
        tags: [`client-${client}`],
        categories: [],
      };
      const exchange = await this.http.postJson('/article/create', bodyFor(state));
      const answer = jsonOf(exchange) as { data?: { id?: number } } | undefined;
      if (exchange.kind === 'answered' && exchange.status === 201 && typeof answer?.data?.id === 'number') {
        this.acknowledged.push({ id: answer.data.id, state, acknowledgedAt: Date.now() });
      } else {
        this.failures.push(exchange.kind === 'answered' ? `${exchange.status} ${exchange.text}` : exchange.code);
      }
    }
  }
}
