import type { DataSource } from 'typeorm';
import type { PrimaryState } from './primary-write-gate';
import { withinDeadline } from './storage-deadline';

/** A probe gets this long: a healthy primary answers in milliseconds, a connect may take a round trip or four. */
export const PRIMARY_PROBE_DEADLINE_MS = 1_500;

/**
 * Asks the primary's address, through the service's own pool, whether it takes writes:
 * `transaction_read_only` is on for a standby (in recovery) and for a server or database set
 * read-only. A pooled connection that answers "read-only" leads to a node that is no primary
 * any more (a demoted primary, a stale route): it is closed, and the next one is asked, up to
 * one more than the pool holds, so the probe also empties the pool of stale connections and
 * ends on a new one, which goes wherever the address leads now.
 */
export function probePrimary(dataSource: DataSource, poolSize: number): Promise<PrimaryState> {
  return withinDeadline(askUntilFresh(dataSource, poolSize + 1), PRIMARY_PROBE_DEADLINE_MS);
}

async function askUntilFresh(dataSource: DataSource, attempts: number): Promise<PrimaryState> {
  if (!dataSource.isInitialized) return 'unreachable';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const runner = dataSource.createQueryRunner('master');
    try {
      const client = (await runner.connect()) as {
        query(text: string): Promise<{ rows: Array<{ ro: string }> }>;
        end(): Promise<void>;
      };
      const { rows } = await client.query(`SELECT current_setting('transaction_read_only') AS ro`);
      if (rows[0]?.ro !== 'on') return 'writable';
      // Dropped by the pool when the runner releases it.
      void client.end().catch(() => {});
    } catch {
      return 'unreachable';
    } finally {
      await runner.release();
    }
  }
  return 'read-only';
}
