import { setTimeout as sleep } from 'node:timers/promises';
import { articleReadFacts, createFacts, listReadFacts } from '../history/answer-facts';
import type { OperationFacts } from '../history/operation-facts';
import { type Exchange, jsonOf, RawHttpClient } from '../raw-http';
import { type ArticleState, bodyFor } from './article-state';
import type { RequestRecord } from './request-log';
import type { WriteLedger, WriteRecord } from './write-ledger';

export type Operation =
  | 'create'
  | 'update'
  | 'read-one'
  | 'list'
  | 'page'
  | 'search'
  | 'delete'
  | 'tags'
  | 'categories'
  | 'seed'
  | 'users';

/** Relative weights of the operations each client picks from. */
export type OperationMix = Partial<Record<Operation, number>>;

export interface LoadOptions {
  baseUrl: string;
  /** Concurrent clients, each sending one request at a time. */
  clients: number;
  mix: OperationMix;
  ledger: WriteLedger;
  random: () => number;
  /** Prefix of every token, unique per run, so that several runs can share a database. */
  runId: string;
  /** Hard bounds: the load stops at whichever comes first (or at stop()). */
  maxDurationMs: number;
  maxRequests: number;
  /** Least time between the starts of two requests of one client: steady, not flat-out, traffic. */
  paceMs?: number;
  /** A request with no answer after this long counts as failed (CLIENT_DEADLINE). */
  deadlineMs?: number;
  /** A client stops at its first refused connection: the service has stopped listening. */
  stopOnRefused?: boolean;
  /**
   * Record each operation's facts for the history checker. Off by default: a run of whole lists
   * then holds every list's ids until it ends, which a soak of many minutes need not pay for.
   */
  recordHistory?: boolean;
  /** Sent with every request: `authorization: Bearer <API_TOKEN>` once the service takes writes only with it. */
  headers?: Record<string, string>;
}

/**
 * Mixed traffic against one service on 127.0.0.1, bounded in time and count. Every request
 * is recorded as the client saw it, and every write goes into the ledger with its outcome,
 * so that a check can later prove what was acknowledged is stored and nothing is half-applied.
 * Each record also names its client (`<runId>/c3`) and, with `recordHistory`, for articles'
 * creates, updates, deletes and reads, its facts: the records are then the run's history for the
 * history checker (a seed creates articles it does not name, so a run with seeds cannot be).
 */
export class LoadGenerator {
  readonly records: RequestRecord[] = [];
  /** Articles a 'delete' created and then deleted, both acknowledged: none may be found again. */
  readonly deleted: number[] = [];
  private readonly http: RawHttpClient;
  private readonly operations: [Operation, number][];
  private readonly totalWeight: number;
  private stopping = false;
  private sent = 0;
  private startedAt = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: LoadOptions) {
    this.http = new RawHttpClient(options.baseUrl, {
      maxSockets: options.clients,
      deadlineMs: options.deadlineMs,
      headers: options.headers,
    });
    this.operations = Object.entries(options.mix).filter(([, weight]) => (weight ?? 0) > 0) as [Operation, number][];
    this.totalWeight = this.operations.reduce((sum, [, weight]) => sum + weight, 0);
  }

  start(): this {
    this.startedAt = performance.now();
    this.running = Promise.all(
      Array.from({ length: this.options.clients }, (_, client) => this.runClient(client)),
    ).then(() => {});
    return this;
  }

  /** Resolves once every client has stopped (at stop(), or at the bounds). */
  finished(): Promise<void> {
    return this.running;
  }

  async stop(): Promise<RequestRecord[]> {
    this.stopping = true;
    await this.running;
    this.http.close();
    return this.records;
  }

  private async runClient(client: number): Promise<void> {
    for (let sequence = 0; this.mayContinue(); sequence++) {
      const startedAt = performance.now();
      this.sent++;
      const record = await this.perform(this.pick(), client, sequence);
      this.records.push(record);
      if (this.options.stopOnRefused && record.failure === 'ECONNREFUSED') return;
      const pace = this.options.paceMs ?? 0;
      if (pace > 0) await sleep(Math.max(0, startedAt + pace - performance.now()));
    }
  }

  private mayContinue(): boolean {
    return (
      !this.stopping &&
      this.sent < this.options.maxRequests &&
      performance.now() - this.startedAt < this.options.maxDurationMs
    );
  }

  private pick(): Operation {
    let roll = this.options.random() * this.totalWeight;
    for (const [operation, weight] of this.operations) {
      roll -= weight;
      if (roll < 0) return operation;
    }
    return this.operations[0]?.[0] ?? 'list';
  }

  private perform(operation: Operation, client: number, sequence: number): Promise<RequestRecord> {
    const token = `${this.options.runId}-${client}-${sequence}`;
    const sent = { client: this.clientName(client) };
    switch (operation) {
      case 'create':
        return this.create(client, token, sequence);
      case 'update': {
        const owned = this.options.ledger.ownedBy(client);
        const id = owned[Math.floor(this.options.random() * owned.length)];
        return id === undefined ? this.create(client, token, sequence) : this.update(client, id, token, sequence);
      }
      case 'read-one': {
        const known = this.options.ledger.allOwned();
        const id = known[Math.floor(this.options.random() * known.length)] ?? 1;
        const factsOf: FactsOf = (exchange, body) => articleReadFacts(id, exchange, body);
        return this.timed(operation, () => this.http.get(`/article/${id}`), { ...sent, factsOf });
      }
      case 'list':
        return this.timed(operation, () => this.http.get('/article'), { ...sent, factsOf: listReadFacts });
      case 'page': {
        const known = this.options.ledger.allOwned();
        const after = known[Math.floor(this.options.random() * known.length)];
        const from = after === undefined ? '' : `&after=${after}`;
        const factsOf: FactsOf = (exchange, body) => listReadFacts(exchange, body, { after: after ?? 0, limit: 20 });
        return this.timed(operation, () => this.http.get(`/article?limit=20${from}`), { ...sent, factsOf });
      }
      case 'search': {
        // Another client's articles, by their title's token prefix: a substring search that matches.
        const words = `${this.options.runId}-${Math.floor(this.options.random() * this.options.clients)}-`;
        const paged = this.options.random() < 0.5 ? '&limit=20' : '';
        const factsOf: FactsOf = (exchange, body) => listReadFacts(exchange, body, { filtered: true });
        return this.timed(operation, () => this.http.get(`/article?q=${encodeURIComponent(words)}${paged}`), {
          ...sent,
          factsOf,
        });
      }
      case 'delete':
        return this.createThenDelete(client, token, sequence);
      case 'tags':
        return this.timed(operation, () => this.http.get('/tag'), sent);
      case 'categories':
        return this.timed(operation, () => this.http.get('/category'), sent);
      case 'seed':
        return this.timed(operation, () => this.http.get('/seed/create'), sent);
      case 'users':
        return this.timed(operation, () => this.http.get('/user/list'), sent);
    }
  }

  private async create(client: number, token: string, sequence: number): Promise<RequestRecord> {
    const state = writtenState('created', token, sequence);
    const write = this.options.ledger.begin('create', token, state, null);
    const record = await this.timed('create', () => this.http.postJson('/article/create', bodyFor(state)), {
      client: this.clientName(client),
      write,
      factsOf: (exchange, body) => createFacts(state.title, undefined, exchange, body),
    });
    if (write.outcome === 'acked' && write.articleId !== null) this.options.ledger.own(client, write.articleId);
    return record;
  }

  /** An article of its own, outside the ledger, created and then deleted. */
  private async createThenDelete(client: number, token: string, sequence: number): Promise<RequestRecord> {
    const state = { ...writtenState('created', `${token}-deleted`, sequence), visible: sequence % 2 === 0 };
    const sent = { client: this.clientName(client) };
    let id: number | undefined;
    const send = async () => {
      const exchange = await this.http.postJson('/article/create', bodyFor(state));
      id = (jsonOf(exchange) as { data?: { id?: number } } | undefined)?.data?.id;
      return exchange;
    };
    const created = await this.timed('create', send, {
      ...sent,
      factsOf: (exchange, body) => createFacts(state.title, undefined, exchange, body),
    });
    if (id === undefined) return created;
    const articleId = id;
    this.records.push(created);
    const deleted = await this.timed('delete', () => this.http.postJson('/article/delete', { id: articleId }), {
      ...sent,
      factsOf: () => ({ kind: 'delete', articleId }),
    });
    if (deleted.status === 200) this.deleted.push(articleId);
    return deleted;
  }

  private update(client: number, id: number, token: string, sequence: number): Promise<RequestRecord> {
    const state = writtenState('updated', token, sequence);
    const write = this.options.ledger.begin('update', token, state, id);
    return this.timed('update', () => this.http.postJson('/article/update', bodyFor(state, id)), {
      client: this.clientName(client),
      write,
      factsOf: () => ({ kind: 'update', articleId: id, visible: state.visible }),
    });
  }

  /** A client's name in the history: unique across the runs that share a database. */
  private clientName(client: number): string {
    return `${this.options.runId}/c${client}`;
  }

  private async timed(operation: string, send: () => Promise<Exchange>, sent: Sent): Promise<RequestRecord> {
    const startedAt = performance.now();
    const exchange = await send();
    const endedAt = performance.now();
    const record: RequestRecord = {
      operation,
      startedAt,
      endedAt,
      status: exchange.kind === 'answered' ? exchange.status : null,
      failure: exchange.kind === 'failed' ? exchange.code : null,
      reusedSocket: exchange.reusedSocket,
      client: sent.client,
    };
    const body = exchange.kind === 'answered' ? parse(exchange.text) : undefined;
    if (record.status !== null && (record.status < 200 || record.status >= 300)) {
      record.message = typeof body?.message === 'string' ? body.message : exchange.kind;
    }
    if (sent.factsOf && this.options.recordHistory) record.facts = sent.factsOf(exchange, body);
    if (sent.write) settleWrite(this.options.ledger, sent.write, record, body);
    return record;
  }
}

/** What an answer showed, for the history (test/support/history). */
type FactsOf = (exchange: Exchange, body: unknown) => OperationFacts;

/** Who sent a request, what its answer shows, and the ledger's write it settles. */
interface Sent {
  client: string;
  factsOf?: FactsOf;
  write?: WriteRecord;
}

/** The state a write asks for: its own tag, a few shared tags and categories, some non-ASCII text. */
function writtenState(verb: 'created' | 'updated', token: string, sequence: number): ArticleState {
  return {
    title: `${verb === 'created' ? 'c' : 'u'} ${token}`,
    content: `${verb} ${token}: ünïcödé 🦀 שלום 漢字`,
    visible: true,
    tags: [`t-${token}`, `shared-${sequence % 4}`],
    categories: [`cat-${sequence % 3}`],
  };
}

function settleWrite(
  ledger: WriteLedger,
  write: WriteRecord,
  record: RequestRecord,
  body: { data?: { id?: number } } | undefined,
): void {
  const detail = record.status === null ? `no answer: ${record.failure}` : `HTTP ${record.status}`;
  write.answeredAt = record.endedAt;
  if (record.status !== null && record.status >= 200 && record.status < 300) {
    ledger.settle(write, 'acked', detail, body?.data?.id);
  } else if (record.status !== null && record.status >= 400 && record.status < 500) {
    ledger.settle(write, 'rejected', detail);
  } else {
    ledger.settle(write, 'failed', detail);
  }
}

function parse(text: string): { message?: unknown; data?: { id?: number } } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
