import { setTimeout as sleep } from 'node:timers/promises';
import { codeOf, type MigrationSession, QUIET_POLL_MS } from './postgres-online';

/* Indexes a migration builds on a live table (postgres-online.ts): CONCURRENTLY online, plainly inline. */

/**
 * Whether index `name` exists and is valid. A CREATE INDEX CONCURRENTLY that was interrupted
 * (cancelled, its session ended, a duplicate found) leaves an INVALID index behind, which
 * `IF NOT EXISTS` would take for done: that one is dropped, so that it is built again.
 */
export async function indexIsBuilt(session: MigrationSession, name: string): Promise<boolean> {
  const [found] = await session.runner.query(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (found === undefined) return false;
  if (found.valid) return true;
  await session.runner.query(`DROP INDEX ${session.online ? 'CONCURRENTLY ' : ''}IF EXISTS ${name}`);
  return false;
}

/** Tries of an index build, each after old snapshots have gone; and how long to wait for them. */
const INDEX_ATTEMPTS = 10;
const OLD_SNAPSHOT_MS = 500;
const SNAPSHOT_WAIT_MS = 60_000;
const STATEMENT_CANCELLED = '57014';

/**
 * Builds index `name` (`CREATE [UNIQUE] INDEX name ON …`, `on` being the part after ON) unless
 * it is built: CONCURRENTLY online, so that no write waits for it; plainly inline.
 *
 * CONCURRENTLY cannot run in a transaction block, so no SET LOCAL reaches it, and a session SET
 * would stay behind on PgBouncer's server connection for other clients: it runs under the
 * session's statement_timeout (the service's 2 s). Its own work is short (at 100,000 articles a
 * fraction of that: bench/README.md, migrate-live), but it also waits, twice, for every
 * transaction that holds an older snapshot (a whole-list stream, a session idle in a
 * transaction). So each try first waits, asking for no lock, until no other transaction has
 * held a snapshot for more than OLD_SNAPSHOT_MS; a try cancelled all the same leaves an INVALID
 * index, dropped by the next try (or the next run).
 */
export async function createIndex(
  session: MigrationSession,
  index: { name: string; unique?: boolean; on: string },
): Promise<void> {
  const create = `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${session.online ? 'CONCURRENTLY ' : ''}${index.name} ON ${index.on}`;
  for (let attempt = 1; ; attempt++) {
    if (await indexIsBuilt(session, index.name)) return;
    if (!session.online) {
      await session.runner.query(create);
      return;
    }
    const started = performance.now();
    await waitForOldSnapshots(session);
    const waited = performance.now() - started;
    try {
      await session.runner.query(create);
      const built = performance.now() - started - waited;
      session.log(`${index.name}: waited ${waited.toFixed(0)} ms for old snapshots, built in ${built.toFixed(0)} ms`);
      return;
    } catch (error) {
      if (codeOf(error) !== STATEMENT_CANCELLED || attempt === INDEX_ATTEMPTS) throw error;
      session.log(`${index.name}: try ${attempt} cancelled by statement_timeout, building again`);
    }
  }
}

/** Waits (up to SNAPSHOT_WAIT_MS, then goes on) while another transaction holds an old snapshot. */
async function waitForOldSnapshots(session: MigrationSession): Promise<void> {
  const giveUpAt = Date.now() + SNAPSHOT_WAIT_MS;
  for (;;) {
    const holders: { pid: number; what: string }[] = await session.runner.query(
      `SELECT pid, coalesce(usename, '') || ' ' || coalesce(application_name, '') || ': ' || coalesce(state, '') AS what
         FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND backend_xmin IS NOT NULL
          AND pid NOT IN (pg_backend_pid(), $1) AND xact_start < now() - $2 * interval '1 millisecond'`,
      [session.lockPid, OLD_SNAPSHOT_MS],
    );
    if (holders.length === 0) return;
    if (Date.now() > giveUpAt) {
      session.log(`building an index beside old snapshots of ${holders.map((h) => `${h.pid} (${h.what})`).join(', ')}`);
      return;
    }
    await sleep(QUIET_POLL_MS);
  }
}
