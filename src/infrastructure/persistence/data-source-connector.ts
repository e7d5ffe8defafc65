import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { type Backoff, backoffDelays, withJitter } from '../../application';
import type { SqlDatabaseConfig } from '../config/config';
import { createDataSource, type DataSourceEvents, migrateUnderLock } from './typeorm/data-source';

export interface ConnectorEvents extends DataSourceEvents {
  /** An attempt to reach and migrate the database failed; the next one comes in `retryInMs`. */
  onAttemptFailed?: (error: unknown, attempt: number, retryInMs: number) => void;
  /** The schema is current and the data source serves. */
  onConnected?: (attempts: number) => void;
}

/**
 * Capped at 2 s, so that the service serves within about 2 s of the database coming back. The
 * connector shortens each wait by up to half at random; `npm run migrate` waits them whole.
 */
export const CONNECT_BACKOFF: Backoff = { firstMs: 250, maxMs: 2_000 };
const CLOSE_WAIT_MS = 2_000;

/**
 * The service's PostgreSQL DataSource, opened whenever the database first lets it in: at start
 * if it is there, otherwise by retrying with back-off while the service already listens (and
 * answers 503: the repository and the readiness probe treat a DataSource that is not
 * initialized as storage unavailable). No crash loop when the database is late.
 *
 * Each attempt migrates first, on a short-lived DataSource of its own, and initializes the
 * serving one only once the schema is current, so no request ever runs on an old schema.
 * Once open, the pool itself reconnects after later outages; this connector is done.
 */
export class DataSourceConnector {
  readonly dataSource: DataSource;
  private closed = false;
  private readonly stopWaiting = new AbortController();
  private retrying: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: SqlDatabaseConfig,
    private readonly events: ConnectorEvents = {},
    private readonly backoff: Backoff = CONNECT_BACKOFF,
  ) {
    this.dataSource = createDataSource(database, events);
  }

  /** Makes the first attempt and resolves; when it fails, the next ones run in the background. */
  async start(): Promise<void> {
    const delays = backoffDelays(this.backoff);
    // A failed attempt reports the wait before the next one as planned, before its jitter.
    const firstDelayMs = delays.next().value;
    if (await this.attempt(1, firstDelayMs)) return;
    this.retrying = this.retry(firstDelayMs, delays);
  }

  /**
   * Stops retrying and closes the data source if it was opened. An attempt under way gets a
   * moment to finish (a hung server could hold it for ever); one that opens the data source
   * after that is closed by the attempt itself.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stopWaiting.abort();
    // Unref'd: the bound on the wait must not itself keep a stopping process alive.
    await Promise.race([this.retrying, sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  /** Waits `firstDelayMs`, then each of `delays` in turn, between the attempts. */
  private async retry(firstDelayMs: number, delays: Iterator<number, never>): Promise<void> {
    for (let attempt = 2, delayMs = firstDelayMs; !this.closed; attempt++) {
      try {
        await sleep(withJitter(delayMs), undefined, { signal: this.stopWaiting.signal });
      } catch {
        return; // closed while waiting
      }
      delayMs = delays.next().value;
      if (await this.attempt(attempt, delayMs)) return;
    }
  }

  /** Answers whether the data source is open (or the connector was closed meanwhile). */
  private async attempt(attempt: number, retryInMs: number): Promise<boolean> {
    try {
      await this.migrate();
      if (this.closed) return true;
      await this.dataSource.initialize();
      if (this.closed) {
        await this.dataSource.destroy();
        return true;
      }
      this.events.onConnected?.(attempt);
      return true;
    } catch (error) {
      this.events.onAttemptFailed?.(error, attempt, retryInMs);
      return false;
    }
  }

  private async migrate(): Promise<void> {
    const migrator = createDataSource(this.database, this.events);
    try {
      await migrator.initialize();
      await migrateUnderLock(migrator);
    } finally {
      if (migrator.isInitialized) await migrator.destroy();
    }
  }
}
