import type { OperationFacts } from '../history/operation-facts';

/**
 * One request of a load run, as the client saw it. Times are performance.now() milliseconds.
 * With `client` and `facts` it is also one operation of a history (test/support/history).
 */
export interface RequestRecord {
  operation: string;
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came (ECONNREFUSED, ECONNRESET, CLIENT_DEADLINE, ...), else null. */
  failure: string | null;
  /** Sent on a keep-alive connection that had already carried a request. */
  reusedSocket: boolean;
  /** The wrapper's message of a non-2xx answer. */
  message?: string;
  /** The virtual client that sent it; one client's requests are sequential. */
  client?: string;
  /** What it asked for and what its answer showed, for the history checker. */
  facts?: OperationFacts;
}

export const latencyOf = (record: RequestRecord) => record.endedAt - record.startedAt;

/** `2xx`, `http 503`, `network ECONNRESET`, ... */
export function kindOf(record: RequestRecord): string {
  if (record.status === null) return `network ${record.failure}`;
  if (record.status >= 200 && record.status < 300) return '2xx';
  return `http ${record.status}`;
}

export function countByKind(records: readonly RequestRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) {
    const kind = kindOf(record);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Every kind but 2xx. */
export function errorsByKind(records: readonly RequestRecord[]): Record<string, number> {
  const { '2xx': _ok, ...errors } = countByKind(records);
  return errors;
}

export function maxLatency(records: readonly RequestRecord[]): number {
  return records.reduce((max, record) => Math.max(max, latencyOf(record)), 0);
}

export function overlapping(records: readonly RequestRecord[], from: number, to: number): RequestRecord[] {
  return records.filter((record) => record.startedAt <= to && record.endedAt >= from);
}
