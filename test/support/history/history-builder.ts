import type { RequestRecord } from '../load/request-log';
import type { Observation, OperationFacts } from './operation-facts';

const EVERY_ID = { after: 0, upTo: Number.POSITIVE_INFINITY };

/** A status, or null for no answer (the request failed or timed out). */
type Answer = number | null;

/**
 * Small handmade histories for the checker's tests: each operation takes the next 10 ms on one
 * clock unless `during` places it (to overlap another), so their order is the order written.
 */
export class HistoryBuilder {
  readonly operations: RequestRecord[] = [];
  private clock = 0;

  create(client: string, title: string, answer: Answer, options: { key?: string; id?: number } = {}): this {
    return this.add(client, 'create', answer, {
      kind: 'create',
      title,
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.id === undefined ? {} : { createdId: options.id }),
    });
  }

  update(client: string, articleId: number, answer: Answer, visible?: boolean, during?: [number, number]): this {
    const facts: OperationFacts = { kind: 'update', articleId, ...(visible === undefined ? {} : { visible }) };
    return this.add(client, 'update', answer, facts, during);
  }

  delete(client: string, articleId: number, answer: Answer, during?: [number, number]): this {
    return this.add(client, 'delete', answer, { kind: 'delete', articleId }, during);
  }

  /** A read answered 2xx showing `observed`. */
  read(client: string, observed: Partial<Observation>): this {
    return this.add(client, 'read', 200, { kind: 'read', observed: { present: [], missing: [], ...observed } });
  }

  /** A list answered 2xx showing these ids; by default it lists every visible article. */
  list(client: string, ids: number[], covers: { after: number; upTo: number } | null = EVERY_ID): this {
    const listed = covers === null ? { ids } : { ids, covers };
    return this.add(client, 'list', 200, { kind: 'read', observed: { present: [], missing: [], listed } });
  }

  /** A read that got no answer: it shows nothing. */
  failedRead(client: string): this {
    return this.add(client, 'read', null, { kind: 'read' });
  }

  /** Nobody sends anything for `ms`. */
  pause(ms: number): this {
    this.clock += ms;
    return this;
  }

  /** When the next operation would start: to place a write during it. */
  get now(): number {
    return this.clock;
  }

  private add(
    client: string,
    operation: string,
    status: Answer,
    facts: OperationFacts,
    during?: [number, number],
  ): this {
    const [startedAt, endedAt] = during ?? [this.clock, this.clock + 10];
    if (!during) this.clock += 10;
    this.operations.push({
      operation,
      startedAt,
      endedAt,
      status,
      failure: status === null ? 'ECONNRESET' : null,
      reusedSocket: false,
      client,
      facts,
    });
    return this;
  }
}

/** One article as a read shows it. */
export const seen = (id: number, version?: number, visible = true) => ({
  id,
  visible,
  ...(version === undefined ? {} : { version }),
});
