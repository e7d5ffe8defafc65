import { setTimeout as sleep } from 'node:timers/promises';
import { type Exchange, RawHttpClient } from '../raw-http';
import { bodyFor } from './article-state';
import type { RequestRecord } from './request-log';

/** One idempotency key: one article the client wants, however many attempts it takes. */
export interface KeyedCreate {
  readonly key: string;
  /** The body every attempt sends (a replay of the key must send it again). */
  readonly body: unknown;
  /** Wall-clock time (Date.now()) of the first attempt: a write invoked after a restore target must be absent. */
  invokedAt: number | null;
  /** Wall-clock time of the 2xx answer: a write acknowledged before a restore target must be back. */
  ackedAt: number | null;
  attempts: number;
  /** The id of the 2xx answer, once one came. */
  ackedId: number | null;
  /** A 4xx other than 409 (in progress): the client gives up on the key. */
  rejected: string | null;
}

export interface FailoverLoadOptions {
  baseUrl: string;
  writers: number;
  readers: number;
  /** Least time between the starts of two requests of one client. */
  paceMs: number;
  /** Unique per run: every key and title starts with it. */
  runId: string;
  /** A request with no answer after this long counts as failed (CLIENT_DEADLINE). */
  deadlineMs: number;
}

/**
 * Load for failovers, as a careful client behaves: writers create articles, each with an
 * `Idempotency-Key`, and retry a 503, a 409 (in progress), a reset or a timeout with the SAME key
 * and body until a 2xx (or a final 4xx); readers get an acknowledged article by id or a page of
 * the list. Every attempt is recorded, so the answers can be bounded and drawn on a timeline,
 * and every key's outcome is kept, so lost and duplicated articles can be counted per key.
 */
export class FailoverLoad {
  readonly records: RequestRecord[] = [];
  readonly keys: KeyedCreate[] = [];
  private readonly http: RawHttpClient;
  private readonly acked: number[] = [];
  private stopping = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: FailoverLoadOptions) {
    this.http = new RawHttpClient(options.baseUrl, {
      maxSockets: options.writers + options.readers,
      deadlineMs: options.deadlineMs,
    });
  }

  start(): this {
    this.running = Promise.all([
      ...Array.from({ length: this.options.writers }, (_, client) => this.writer(client)),
      ...Array.from({ length: this.options.readers }, (_, client) => this.reader(client)),
    ]).then(() => {});
    return this;
  }

  async stop(): Promise<RequestRecord[]> {
    this.stopping = true;
    await this.running;
    this.http.close();
    return this.records;
  }

  private async writer(client: number): Promise<void> {
    for (let sequence = 0; !this.stopping; sequence++) {
      const key = `${this.options.runId}-w${client}-${sequence}`;
      const body = bodyFor({
        title: `fo ${key}`,
        content: `failover ${key}`,
        visible: true,
        tags: [`t-${key}`, `shared-${sequence % 4}`],
        categories: [`cat-${sequence % 3}`],
      });
      const created: KeyedCreate = {
        key,
        body,
        invokedAt: null,
        ackedAt: null,
        attempts: 0,
        ackedId: null,
        rejected: null,
      };
      this.keys.push(created);
      // The same key and body until an answer settles it; a stop leaves the last key unsettled.
      while (!this.stopping && created.ackedId === null && created.rejected === null) {
        const startedAt = performance.now();
        created.invokedAt ??= Date.now();
        created.attempts++;
        const exchange = await this.timed('create', () =>
          this.http.exchange({
            method: 'POST',
            path: '/article/create',
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(body),
          }),
        );
        if (exchange.kind === 'answered' && exchange.status >= 200 && exchange.status < 300) {
          created.ackedAt = Date.now();
          created.ackedId = Number((JSON.parse(exchange.text) as { data: { id: number } }).data.id);
          this.acked.push(created.ackedId);
        } else if (exchange.kind === 'answered' && exchange.status >= 400 && exchange.status < 500) {
          if (exchange.status !== 409) created.rejected = `${exchange.status} ${exchange.text}`;
        }
        await sleep(Math.max(0, startedAt + this.options.paceMs - performance.now()));
      }
    }
  }

  private async reader(client: number): Promise<void> {
    for (let sequence = 0; !this.stopping; sequence++) {
      const startedAt = performance.now();
      // Ids acknowledged a while ago (not the last 50): a lagging asynchronous replica has them.
      const settled = this.acked.length - 50;
      if (sequence % 2 === 0 && settled > 0) {
        const id = this.acked[(client * 7919 + sequence * 104729) % settled];
        await this.timed('read-one', () => this.http.get(`/article/${id}`));
      } else {
        await this.timed('list', () => this.http.get('/article?limit=20'));
      }
      await sleep(Math.max(0, startedAt + this.options.paceMs - performance.now()));
    }
  }

  private async timed(operation: string, send: () => Promise<Exchange>): Promise<Exchange> {
    const startedAt = performance.now();
    const exchange = await send();
    const record: RequestRecord = {
      operation,
      startedAt,
      endedAt: performance.now(),
      status: exchange.kind === 'answered' ? exchange.status : null,
      failure: exchange.kind === 'failed' ? exchange.code : null,
      reusedSocket: exchange.reusedSocket,
    };
    if (exchange.kind === 'answered' && (exchange.status < 200 || exchange.status >= 300)) {
      record.message = messageOf(exchange.text);
    }
    this.records.push(record);
    return exchange;
  }
}

function messageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' ? message : text.slice(0, 100);
  } catch {
    return text.slice(0, 100);
  }
}
