import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

/** The sessions on this test database but the administrator's own and those in $1 (spared). */
const OTHER_SESSIONS = 'datname = current_database() AND pid <> pg_backend_pid() AND NOT (pid = ANY($1::int[]))';

/**
 * An administrator's session on one test database, to break the service's connections on
 * purpose: end every other session on the database, or find the session that a lock held
 * by another test session is blocking.
 */
export class PostgresSessions {
  private constructor(private readonly client: Client) {}

  static async open(url: string): Promise<PostgresSessions> {
    const client = new Client({ connectionString: url });
    // A test session that the server ends (immediate shutdown) must not crash the test run.
    client.on('error', () => {});
    await client.connect();
    return new PostgresSessions(client);
  }

  /** Ends every session on this database but this one (and `spare`); answers how many it ended. */
  terminateAll(spare: readonly number[] = []): Promise<number> {
    return this.terminateOthers(spare, '');
  }

  /**
   * Ends the idle sessions on this database but `spare`; answers how many it ended. A session busy
   * with a statement is left: ended there, its error goes to that statement, not to its pool.
   */
  terminateIdle(spare: readonly number[] = []): Promise<number> {
    return this.terminateOthers(spare, " AND state = 'idle'");
  }

  /** How many sessions on this database there are but this one and `spare`, in any state. */
  async countOthers(spare: readonly number[] = []): Promise<number> {
    const { rows } = await this.client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE ${OTHER_SESSIONS}`,
      [spare],
    );
    return rows[0]?.count ?? 0;
  }

  private async terminateOthers(spare: readonly number[], condition: string): Promise<number> {
    const { rows } = await this.client.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE ${OTHER_SESSIONS}${condition}`,
      [spare],
    );
    return rows.filter((row) => row.ended).length;
  }

  /** The sessions on this database whose client named itself `applicationName`. */
  async pidsOf(applicationName: string): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [applicationName],
    );
    return rows.map((row) => row.pid);
  }

  async terminate(pid: number): Promise<void> {
    await this.client.query('SELECT pg_terminate_backend($1)', [pid]);
  }

  /** Waits until some session is blocked by `holderPid` and answers its pid (or throws after `waitMs`). */
  async blockedBy(holderPid: number, waitMs = 10_000): Promise<number> {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const { rows } = await this.client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
        [holderPid],
      );
      if (rows[0]) return rows[0].pid;
      await sleep(2);
    }
    throw new Error(`no session was blocked by ${holderPid} within ${waitMs} ms`);
  }

  /** Waits until the session `pid` has ended (pg_terminate_backend only signals it). */
  async waitUntilGone(pid: number, waitMs = 10_000): Promise<void> {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const { rows } = await this.client.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (rows.length === 0) return;
      await sleep(2);
    }
    throw new Error(`session ${pid} was still there after ${waitMs} ms`);
  }

  query<Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
    return this.client.query<Row>(text, values).then((result) => result.rows);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}

/** A second test session that holds locks inside an open transaction until it lets go. */
export class LockHolder {
  private constructor(
    private readonly client: Client,
    readonly pid: number,
  ) {}

  static async open(url: string): Promise<LockHolder> {
    const client = new Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return new LockHolder(client, (rows[0] as { pid: number }).pid);
  }

  /** Begins a transaction and runs the statement that takes the lock; the lock stays until release(). */
  async hold(text: string, values: unknown[] = []): Promise<void> {
    await this.client.query('BEGIN');
    await this.client.query(text, values);
  }

  /** Rolls back: whatever was blocked on the lock goes on. */
  async release(): Promise<void> {
    await this.client.query('ROLLBACK');
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
