import type { ArticleState } from './article-state';

/**
 * acked: a 2xx answer; rejected: a 4xx answer (must not be applied); failed: an error answer
 * or no answer (may or may not be applied, but never in part).
 */
export type WriteOutcome = 'pending' | 'acked' | 'rejected' | 'failed';

export interface WriteRecord {
  kind: 'create' | 'update';
  /** Unique in the run; the write's own tag is `t-<token>`, created in the same transaction. */
  token: string;
  intended: ArticleState;
  /** Known for updates, and for creates once acknowledged. */
  articleId: number | null;
  outcome: WriteOutcome;
  detail: string;
  /** When its answer (or its failure) came, performance.now(); unset while pending. */
  answeredAt?: number;
}

/**
 * Every write the load sent, in order. Each article is written by one client only, one write
 * at a time, so an article's writes are in the order the service received them.
 */
export class WriteLedger {
  readonly writes: WriteRecord[] = [];
  private readonly byArticle = new Map<number, WriteRecord[]>();
  /** Acknowledged articles by owning client, for updates and reads. */
  private readonly owned = new Map<number, number[]>();

  begin(kind: WriteRecord['kind'], token: string, intended: ArticleState, articleId: number | null): WriteRecord {
    const record: WriteRecord = { kind, token, intended, articleId, outcome: 'pending', detail: '' };
    this.writes.push(record);
    if (articleId !== null) this.chainOf(articleId).push(record);
    return record;
  }

  settle(record: WriteRecord, outcome: Exclude<WriteOutcome, 'pending'>, detail: string, createdId?: number): void {
    record.outcome = outcome;
    record.detail = detail;
    if (record.kind === 'create' && outcome === 'acked' && createdId !== undefined) {
      record.articleId = createdId;
      this.chainOf(createdId).unshift(record);
    }
  }

  own(client: number, articleId: number): void {
    const list = this.owned.get(client) ?? [];
    list.push(articleId);
    this.owned.set(client, list);
  }

  ownedBy(client: number): readonly number[] {
    return this.owned.get(client) ?? [];
  }

  allOwned(): number[] {
    return [...this.owned.values()].flat();
  }

  /** The writes of each acknowledged article, create first. */
  chains(): ReadonlyMap<number, readonly WriteRecord[]> {
    return this.byArticle;
  }

  /** Creates that were never acknowledged: their id is unknown, found (if at all) by content. */
  unacknowledgedCreates(): WriteRecord[] {
    return this.writes.filter((write) => write.kind === 'create' && write.outcome !== 'acked');
  }

  count(outcome: WriteOutcome): number {
    return this.writes.filter((write) => write.outcome === outcome).length;
  }

  private chainOf(articleId: number): WriteRecord[] {
    let chain = this.byArticle.get(articleId);
    if (!chain) {
      chain = [];
      this.byArticle.set(articleId, chain);
    }
    return chain;
  }
}
