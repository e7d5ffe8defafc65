import { DataSource, type DataSourceOptions } from 'typeorm';
import type { KeyChanges, KeyChangesReader } from '../../../../application';
import { StorageUnavailableError } from '../../../../domain';
import type { PostgresDatabaseConfig } from '../../../config/config';
import { type DataSourceEvents, dataSourceOptions } from '../data-source';
import type { PrimaryWriteGate } from '../primary-write-gate';
import { TypeOrmWebhookRepository } from '../webhook-repository/typeorm-webhook-repository';
import { TypeOrmKeyRepository } from './typeorm-key-repository';

/** How operators tell the key refresh's session from the request pool's (pg_stat_activity, PgBouncer's SHOW CLIENTS). */
export const KEY_REFRESH_APPLICATION_NAME = 'blog-api key refresh';

/** Sessions each process holds for the key refresh, beside PG_POOL_SIZE (the connection budget counts them). */
export const KEY_REFRESH_SESSIONS = 1;

/**
 * The key refresh's reads on PostgreSQL, on one session of their own to the primary (never a
 * replica: a revocation is a security decision). In the request pool, a refresh every 400 ms
 * would wait behind every queued request when the pool is busy, and so age the cache past the
 * revocation bound exactly when a look-up per request costs most. Opened at the first refresh
 * once the schema is current, and again at the next one after a failure; until then a refresh
 * fails as the storage does, with StorageUnavailableError (a 503 for a request that waits on it).
 * The instance's other poll, whether any webhook subscription exists (RecordedWriteEvents, every
 * 400 ms too), reads on the same session: neither poll takes a connection a request waits for.
 */
export class KeyChangesOnOwnSession implements KeyChangesReader {
  private readonly dataSource: DataSource;
  private readonly keys: TypeOrmKeyRepository;
  private readonly webhooks: TypeOrmWebhookRepository;
  private opening: Promise<unknown> | null = null;

  constructor(
    database: PostgresDatabaseConfig,
    events: DataSourceEvents,
    /** Whether the service's own data source is open, i.e. migrated: before, the keys' table may not exist. */
    private readonly schemaIsCurrent: () => boolean,
    primaryWriteGate?: PrimaryWriteGate,
  ) {
    const options = dataSourceOptions({ ...database, poolSize: KEY_REFRESH_SESSIONS, readUrls: [] }, events);
    this.dataSource = new DataSource({
      ...options,
      applicationName: KEY_REFRESH_APPLICATION_NAME,
    } as DataSourceOptions);
    const primary = { preparedStatements: database.preparedStatements ?? true, primaryWriteGate };
    this.keys = new TypeOrmKeyRepository(this.dataSource, primary);
    this.webhooks = new TypeOrmWebhookRepository(this.dataSource, primary);
  }

  async changesSince(since: Date): Promise<KeyChanges> {
    await this.opened();
    return this.keys.changesSince(since);
  }

  /** Whether any webhook subscription exists (WebhookRepository.anySubscription), on this session. */
  async anySubscription(): Promise<boolean> {
    await this.opened();
    return this.webhooks.anySubscription();
  }

  private async opened(): Promise<void> {
    if (!this.schemaIsCurrent()) throw new StorageUnavailableError();
    if (!this.dataSource.isInitialized) {
      this.opening ??= this.dataSource.initialize().finally(() => {
        this.opening = null;
      });
      try {
        await this.opening;
      } catch (error) {
        throw new StorageUnavailableError({ cause: error });
      }
    }
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => {});
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
