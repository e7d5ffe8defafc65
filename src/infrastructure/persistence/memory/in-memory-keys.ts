import type { IdempotencyClaim } from '../../../application';
import type { Article } from '../../../domain';

/** A key's record: the article as it was created, answered again to the same request. */
interface KeyRecord {
  fingerprint: string;
  storedAt: Date;
  article: Article;
}

/** The Idempotency-Key records of the in-memory store. */
export class InMemoryKeys {
  private readonly records = new Map<string, KeyRecord>();

  /** The key's record when it was stored after the claim's expiry, as a copy. */
  live(claim: IdempotencyClaim): { fingerprint: string; article: Article } | undefined {
    const record = this.records.get(claim.key);
    if (!record || record.storedAt <= claim.expiredUpTo) return undefined;
    return { fingerprint: record.fingerprint, article: structuredClone(record.article) };
  }

  store(claim: IdempotencyClaim, storedAt: Date, article: Article): void {
    this.records.set(claim.key, { fingerprint: claim.fingerprint, storedAt, article: structuredClone(article) });
  }

  /** Removes at most `limit` records stored at or before `upTo`; answers how many. */
  deleteExpired(upTo: Date, limit: number): number {
    let removed = 0;
    for (const [key, record] of this.records) {
      if (removed === limit) break;
      if (record.storedAt <= upTo) {
        this.records.delete(key);
        removed++;
      }
    }
    return removed;
  }
}
