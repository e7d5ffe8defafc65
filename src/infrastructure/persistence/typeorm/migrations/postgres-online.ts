import { setTimeout as sleep } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';

/**
 * How a PostgreSQL migration changes a table that a running service writes to, without holding
 * a lock for long. migrateUnderLock runs every pending migration in ONE transaction that holds
 * the migration lock (ADR 0037): a lock taken there is held until the last migration ends. So a
 * migration that must not stop the writers does its work on a connection of its own, in short
 * transactions, while the lock transaction only keeps the migration lock and records the
 * migration at its end.
 *
 * That needs every earlier change of the lock transaction to be visible to the other connection:
 * when a migration before this one ran in the same transaction (an empty database being
 * created, or a database several releases behind), its writes are not committed, and the table
 * may not even exist for the other connection. Then the work runs inline, in the lock
 * transaction, as any other migration does (the earlier migration's locks are held until the end
 * anyway).
 */
export interface MigrationSession {
  /** False when the work runs inside the lock transaction (see above). */
  readonly online: boolean;
  /** Elapsed milliseconds of each step, in order. */
  readonly steps: { step: string; ms: number; attempts: number }[];
  /** The connection statements outside `transaction` run on. */
  readonly runner: QueryRunner;
  /** The backend of the lock transaction, which holds no snapshot while the work runs. */
  readonly lockPid: number;
  /**
   * `work` as a transaction of its own (online), with `lock_timeout` so that writers never queue
   * long behind a statement waiting for a strong lock; retried when the lock was not granted in
   * time, or a deadlock chose it. Inline, `work` is part of the lock transaction.
   */
  transaction<T>(work: (runner: QueryRunner) => Promise<T>, limits?: TransactionLimits): Promise<T>;
  /** Times `work` as a step of the migration (the log and `steps` show it). */
  step<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** A line for TypeORM's logger, as schema building (shown with `logging: ['schema']`, silent in the service). */
  log(message: string): void;
}

export interface TransactionLimits {
  /** How long a statement may wait for a lock (SET LOCAL lock_timeout); 0 for no limit. */
  lockTimeoutMs?: number;
  /**
   * The table `work` takes a lock on that blocks its writers. Before each try, the session waits
   * (without asking for a lock, so no writer queues behind it) while another session holds a
   * lock on it that a writer's would not conflict with but ours would: an autovacuum above all,
   * which yields to a lock request only after deadlock_timeout (1 s), longer than lock_timeout.
   */
  blocksWritesOn?: string;
  /** SET LOCAL statement_timeout; 0 for none. The session's own (2 s for the service) otherwise. */
  statementTimeoutMs?: number;
}

/** Writers wait at most this long behind a statement that asks for a lock on a busy table. */
export const LOCK_TIMEOUT_MS = 200;
/** Tries of a transaction whose lock is not granted in time, and the pause between them. */
const LOCK_ATTEMPTS = 50;
const LOCK_RETRY_PAUSE_MS = 250;
/** How often, and how long at most, a session polls for the strong locks of others to end. */
export const QUIET_POLL_MS = 100;
const QUIET_WAIT_MS = 10 * 60_000;
/**
 * A statement on the lock transaction at this interval while the work runs elsewhere: the
 * server's idle_in_transaction_session_timeout (10 s for the service's role) and PgBouncer's
 * idle_transaction_timeout (10 s) would otherwise end the session, and with it the lock. SHOW
 * takes no snapshot, so the lock transaction never holds back CREATE INDEX CONCURRENTLY, which
 * waits for transactions that hold old snapshots.
 */
const HEARTBEAT_MS = 1_000;

const LOCK_NOT_AVAILABLE = '55P03';
const DEADLOCK_DETECTED = '40P01';

export const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * Runs `work` on a session as described above: online on a new connection of the migration's
 * data source, with a heartbeat on the lock transaction; inline when that transaction has
 * written anything, or when the pool has a single connection (PG_POOL_SIZE=1). Whatever `work` does, the connection is released and the heartbeat stopped.
 */
export async function withMigrationSession<T>(
  lockRunner: QueryRunner,
  name: string,
  work: (session: MigrationSession) => Promise<T>,
): Promise<T> {
  // Without parameters: the simple protocol keeps no portal, so the lock transaction holds no
  // snapshot between statements (CREATE INDEX CONCURRENTLY would wait for it, for ever).
  const [{ written, pid }] = await lockRunner.query(
    'SELECT txid_current_if_assigned() IS NOT NULL AS written, pg_backend_pid() AS pid',
  );
  const logger = lockRunner.connection.logger;
  const steps: MigrationSession['steps'] = [];
  const log = (message: string) => logger.logSchemaBuild(`${name}: ${message}`, lockRunner);
  if (written) {
    log('earlier migrations of this run are not committed yet: working inside the lock transaction');
    return work(sessionOn(lockRunner, pid, false, steps, log));
  }
  // pg-pool's default is 10; with PG_POOL_SIZE=1 the lock transaction holds the only connection.
  const poolSize = (lockRunner.connection.options as { extra?: { max?: number } }).extra?.max ?? 10;
  if (poolSize < 2) {
    log('a pool of one connection has none for the work: working inside the lock transaction');
    return work(sessionOn(lockRunner, pid, false, steps, log));
  }
  const heartbeat = new Heartbeat(lockRunner);
  const runner = lockRunner.connection.createQueryRunner('master');
  try {
    await runner.connect();
    return await work(sessionOn(runner, pid, true, steps, log, heartbeat));
  } finally {
    await heartbeat.stop();
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => {});
    await runner.release();
  }
}

function sessionOn(
  runner: QueryRunner,
  lockPid: number,
  online: boolean,
  steps: MigrationSession['steps'],
  log: (message: string) => void,
  heartbeat?: Heartbeat,
): MigrationSession {
  let attempts = 0;
  return {
    online,
    steps,
    runner,
    lockPid,
    log,
    async transaction(work, limits = {}) {
      if (!online) return work(runner);
      for (let attempt = 1; ; attempt++) {
        heartbeat?.check();
        if (limits.blocksWritesOn) await waitWhileStronglyLocked(runner, limits.blocksWritesOn, heartbeat);
        attempts++;
        await runner.startTransaction();
        try {
          await runner.query(`SET LOCAL lock_timeout = ${limits.lockTimeoutMs ?? LOCK_TIMEOUT_MS}`);
          if (limits.statementTimeoutMs !== undefined) {
            await runner.query(`SET LOCAL statement_timeout = ${limits.statementTimeoutMs}`);
          }
          const result = await work(runner);
          await runner.commitTransaction();
          return result;
        } catch (error) {
          if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => {});
          const code = codeOf(error);
          if ((code !== LOCK_NOT_AVAILABLE && code !== DEADLOCK_DETECTED) || attempt === LOCK_ATTEMPTS) throw error;
          await sleep(LOCK_RETRY_PAUSE_MS);
        }
      }
    },
    async step(name, work) {
      heartbeat?.check();
      const started = performance.now();
      attempts = 0;
      const result = await work();
      const ms = performance.now() - started;
      steps.push({ step: name, ms, attempts });
      log(`${name}: ${ms.toFixed(0)} ms${attempts > 1 ? ` (${attempts} transactions)` : ''}`);
      return result;
    },
  };
}

/**
 * Waits while another session holds a lock on `table` of SHARE UPDATE EXCLUSIVE or stronger
 * (autovacuum, an index build, another ALTER): asking for an ACCESS EXCLUSIVE lock meanwhile
 * would only end in lock_timeout, again and again, while autovacuum runs on.
 */
async function waitWhileStronglyLocked(runner: QueryRunner, table: string, heartbeat?: Heartbeat): Promise<void> {
  const giveUpAt = Date.now() + QUIET_WAIT_MS;
  for (;;) {
    const holders: { pid: number; what: string }[] = await runner.query(
      `SELECT l.pid, coalesce(a.backend_type, '') || ': ' || coalesce(a.query, '') AS what
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'relation' AND l.relation = $1::regclass AND l.granted
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid()
          AND l.mode IN ('ShareUpdateExclusiveLock', 'ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock',
                         'AccessExclusiveLock')`,
      [table],
    );
    if (holders.length === 0) return;
    heartbeat?.check();
    if (Date.now() > giveUpAt) {
      throw new Error(
        `${table} stayed locked for ${QUIET_WAIT_MS / 1000} s by ${holders.map((h) => h.what).join('; ')}`,
      );
    }
    await sleep(QUIET_POLL_MS);
  }
}

/** Keeps the lock transaction busy enough not to be ended as idle; remembers why it failed, if it did. */
class Heartbeat {
  private failure: unknown;
  private pending: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly runner: QueryRunner) {
    this.timer = setInterval(() => {
      this.pending = this.runner.query('SHOW server_version').then(
        () => {},
        (error: unknown) => {
          this.failure ??= error;
        },
      );
    }, HEARTBEAT_MS);
  }

  /**
   * Throws when the lock transaction failed: without it the migration lock is gone, and another
   * instance may be migrating too. (Every step is safe to run twice, but there is no point.)
   */
  check(): void {
    if (this.failure !== undefined) {
      throw new Error(`the migration lock's transaction failed: ${(this.failure as Error).message ?? this.failure}`, {
        cause: this.failure,
      });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pending;
  }
}
