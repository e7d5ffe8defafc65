import type { RequestRecord } from '../load/request-log';
import type { Anomaly } from './anomaly';
import { checkCreates, type StoredArticle } from './check-creates';
import { checkReads, type ReadCheckOptions } from './check-reads';

/**
 * The whole history of a run, checked against the final read of the primary: every anomaly, by
 * kind (anomaly.ts). A test that records a history expects none. Operations without `facts`
 * (tags, categories, ...) are ignored; the final read must hold every article, of any visibility.
 */
export function checkHistory(
  history: readonly RequestRecord[],
  stored: readonly StoredArticle[],
  options: ReadCheckOptions = {},
): Anomaly[] {
  return [...checkCreates(history, stored), ...checkReads(history, options)];
}
