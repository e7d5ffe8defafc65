/**
 * What the history checker reports, one kind per way a history can be wrong (Jepsen's approach:
 * the whole history, anomalies by kind). Each names what a reader needs to find it in the run.
 */
export type Anomaly =
  /** A create answered 2xx whose article the final read of the primary lacks (and no delete was sent). */
  | { kind: 'lost-acknowledged-create'; articleId: number; title: string | null }
  /** An article in the final read that no create answered 2xx, sent without an answer, or answered 5xx could have made. */
  | { kind: 'phantom-article'; articleId: number; title: string | null }
  /** More than one article for one idempotency key: acknowledged ids and stored articles with its title. */
  | { kind: 'duplicate-for-key'; key: string; articleIds: number[] }
  /** A client read an article, then a later read of the same client showed an older state of it. */
  | { kind: 'stale-read'; client: string; articleId: number; earlier: string; later: string };

export type AnomalyKind = Anomaly['kind'];

export function countAnomalies(anomalies: readonly Anomaly[]): Partial<Record<AnomalyKind, number>> {
  const counts: Partial<Record<AnomalyKind, number>> = {};
  for (const { kind } of anomalies) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
