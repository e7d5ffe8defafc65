import { StorageUnavailableError } from '../../src/domain';
import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { translateStorageError } from '../../src/infrastructure/persistence/typeorm/storage-errors';
import { sql } from '../support/postgres-sql';
import { RowCuttingProxy } from '../support/row-cutting-proxy';
import { createPostgresDatabase } from '../support/test-databases';

/**
 * A pooled connection that dies while idle (the server restarted, a proxy cut it) makes the
 * pool emit 'error'; unheard, that event would crash the process. The data source hears it,
 * reports it, and serves the next query on a new connection.
 */
describe('idle PostgreSQL connections that the server ends', () => {
  it('are reported to onIdleConnectionError, and the next query runs on a new connection', async () => {
    const database = await createPostgresDatabase();
    const lost: Error[] = [];
    let reported: () => void = () => {};
    const firstReport = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const dataSource = await openDataSource(
      { kind: 'postgres', url: database.url },
      {
        onIdleConnectionError: (error) => {
          lost.push(error);
          reported();
        },
      },
    );
    try {
      // Leaves at least one connection idle in the pool.
      await dataSource.query('SELECT 1');
      await sql(
        database.url,
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );

      await firstReport;
      expect(lost[0]).toBeInstanceOf(Error);
      await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});

/**
 * PgBouncer, when its server connection dies while a row is passing through, has forwarded part
 * of the row and writes its own FATAL error into the rest. node-postgres's parser reads the
 * error's bytes as the row's field lengths and throws inside the socket's 'data' event: before
 * the guard, that ended the process (an instance lost in a roll-nodes run). The proxy makes that
 * moment happen on purpose.
 */
describe("a row cut by PgBouncer's own error", () => {
  it('fails its statement as storage unavailable, and the next statement runs on a new connection', async () => {
    const database = await createPostgresDatabase();
    const url = new URL(database.url);
    const proxy = await RowCuttingProxy.start({ host: url.hostname, port: Number(url.port) });
    const dataSource = await openDataSource({ kind: 'postgres', url: proxy.urlThrough(database.url) });
    try {
      const row = `SELECT 'first' AS a, 'x' AS b, 'y' AS c`;
      await expect(dataSource.query(row)).resolves.toEqual([{ a: 'first', b: 'x', c: 'y' }]);

      proxy.cutNextRow();
      const failure = await dataSource.query(row).then(
        () => null,
        (error: unknown) => error,
      );
      expect(proxy.rowsCut).toBe(1);
      expect(failure).toMatchObject({ code: '08P01', message: expect.stringContaining('RangeError') });
      expect(translateStorageError(failure)).toBeInstanceOf(StorageUnavailableError);

      await expect(dataSource.query(row)).resolves.toEqual([{ a: 'first', b: 'x', c: 'y' }]);
    } finally {
      await dataSource.destroy();
      await proxy.stop();
      await database.drop();
    }
  });
});

/**
 * pg's client-side query_timeout gives up on a statement but leaves the connection inside its
 * transaction, drops the queued ROLLBACK, and the pool hands the connection to the next
 * request, whose COMMIT then commits the first one's half. The frozen-database reliability
 * test caught it; this pins the setting (the call deadline bounds the answer instead).
 */
describe('the PostgreSQL pool settings', () => {
  it('set no client-side query timeout, and the server-side limits instead', () => {
    const options = dataSourceOptions({ kind: 'postgres', url: 'postgres://u:p@127.0.0.1:5432/db' });
    const extra = (options as { extra: Record<string, unknown> }).extra;
    expect(extra).not.toHaveProperty('query_timeout');
    expect(extra).toMatchObject({
      statement_timeout: expect.any(Number),
      idle_in_transaction_session_timeout: expect.any(Number),
      connectionTimeoutMillis: expect.any(Number),
    });
  });
});
