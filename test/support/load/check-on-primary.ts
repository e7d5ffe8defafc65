import { type Anomaly } from '../history/anomaly';
import { checkHistory } from '../history/check-history';
import { historyFigures } from '../history/history-figures';
import { readPrimaryArticles } from '../history/primary-articles';
import { TOPOLOGY_READ_STALENESS_MS } from '../history/replica-staleness';
import { startService } from '../service-process';
import { checkDurability, type DurabilityReport, readStoredData } from './durability-check';
import type { RequestRecord } from './request-log';
import type { WriteLedger } from './write-ledger';

export interface PrimaryCheck {
  /** Every write of the ledger against what a service of its own reads back from the primary. */
  report: DurabilityReport;
  /** The whole history against every article the primary holds. */
  anomalies: Anomaly[];
  /** How much history was checked. */
  checked: ReturnType<typeof historyFigures>;
}

/**
 * After a topology test's load: reads back from the primary directly (`primaryUrl`), through a
 * service of its own (no replica, no pooler), and checks the writes and the whole history.
 */
export async function checkOnPrimary(
  primaryUrl: string,
  workDir: string,
  ledger: WriteLedger,
  records: readonly RequestRecord[],
): Promise<PrimaryCheck> {
  const checker = await startService({ DATABASE_URL: primaryUrl }, workDir);
  const stored = await readStoredData(checker.baseUrl).finally(() => checker.process.kill('SIGTERM'));
  await checker.exited;
  return {
    report: checkDurability(ledger, stored),
    // Any visibility, straight from PostgreSQL.
    anomalies: checkHistory(records, await readPrimaryArticles(primaryUrl), {
      staleWithinMs: TOPOLOGY_READ_STALENESS_MS,
    }),
    checked: historyFigures(records),
  };
}
