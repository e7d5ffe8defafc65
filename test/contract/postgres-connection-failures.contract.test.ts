import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { sql } from '../support/postgres-sql';
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
