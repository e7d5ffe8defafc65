import { setTimeout as sleep } from 'node:timers/promises';
import { articleReadFacts, createFacts, listReadFacts } from '../history/answer-facts';
import type { OperationFacts } from '../history/operation-facts';
import { type Exchange, jsonOf, RawHttpClient } from '../raw-http';
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

/** The topology tests' load: 20 clients (10 writers, 10 readers), each at most 10 requests a second. */
export const TWENTY_CLIENTS = { writers: 10, readers: 10, paceMs: 100, deadlineMs: 10_000 } as const;

/**
 * Load for failovers, as a careful client behaves: writers create articles, each with an
 * `Idempotency-Key`, and retry a 503, a 409 (in progress), a reset or a timeout with the SAME key
 * and body until a 2xx (or a final 4xx); readers get an acknowledged article by id or a page of
 * the list. Every attempt is recorded, so the answers can be bounded and drawn on a timeline,
 * and every key's outcome is kept, so lost and duplicated articles can be counted per key. Each
 * record names its client (`<runId>/w3`, `<runId>/r7`) and its facts, so the records are also the
 * run's history for the history checker.
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

  private async writer(writer: number): Promise<void> {
    const client = `${this.options.runId}/w${writer}`;
    for (let sequence = 0; !this.stopping; sequence++) {
      const key = `${this.options.runId}-w${writer}-${sequence}`;
      const title = `fo ${key}`;
      const body = bodyFor({
        title,
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
        const { exchange, facts } = await this.timed(
          client,
          'create',
          () =>
            this.http.exchange({
              method: 'POST',
              path: '/article/create',
              headers: { 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify(body),
            }),
          (exchange, answer) => createFacts(title, key, exchange, answer),
        );
        if (facts.createdId !== undefined) {
          created.ackedAt = Date.now();
          created.ackedId = facts.createdId;
          this.acked.push(created.ackedId);
        } else if (exchange.kind === 'answered' && exchange.status >= 400 && exchange.status < 500) {
          if (exchange.status !== 409) created.rejected = `${exchange.status} ${exchange.text}`;
        }
        await sleep(Math.max(0, startedAt + this.options.paceMs - performance.now()));
      }
    }
  }

  private async reader(reader: number): Promise<void> {
    const client = `${this.options.runId}/r${reader}`;
    for (let sequence = 0; !this.stopping; sequence++) {
      const startedAt = performance.now();
      // Ids acknowledged a while ago (not the last 50): a lagging asynchronous replica has them.
      const settled = this.acked.length - 50;
      if (sequence % 2 === 0 && settled > 0) {
        const id = this.acked[(reader * 7919 + sequence * 104729) % settled] ?? 0;
        await this.timed(
          client,
          'read-one',
          () => this.http.get(`/article/${id}`),
          (exchange, answer) => articleReadFacts(id, exchange, answer),
        );
      } else {
        await this.timed(
          client,
          'list',
          () => this.http.get(`/article?limit=${PAGE}`),
          (exchange, answer) => listReadFacts(exchange, answer, { limit: PAGE }),
        );
      }
      await sleep(Math.max(0, startedAt + this.options.paceMs - performance.now()));
    }
  }

  /** Sends, records the exchange with its client and facts, and answers the facts with the exchange. */
  private async timed<Facts extends OperationFacts>(
    client: string,
    operation: string,
    send: () => Promise<Exchange>,
    factsOf: (exchange: Exchange, answer: unknown) => Facts,
  ): Promise<{ exchange: Exchange; facts: Facts }> {
    const startedAt = performance.now();
    const exchange = await send();
    const endedAt = performance.now();
    const facts = factsOf(exchange, jsonOf(exchange));
    const record: RequestRecord = {
      operation,
      startedAt,
      endedAt,
      status: exchange.kind === 'answered' ? exchange.status : null,
      failure: exchange.kind === 'failed' ? exchange.code : null,
      reusedSocket: exchange.reusedSocket,
      client,
      facts,
    };
    if (exchange.kind === 'answered' && (exchange.status < 200 || exchange.status >= 300)) {
      record.message = messageOf(exchange.text);
    }
    this.records.push(record);
    return { exchange, facts };
  }
}

/** The readers' page of the list: the first articles by id. */
const PAGE = 20;

function messageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' ? message : text.slice(0, 100);
  } catch {
    return text.slice(0, 100);
  }
}
