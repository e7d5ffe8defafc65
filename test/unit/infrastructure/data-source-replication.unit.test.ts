import { dataSourceOptions } from '../../../src/infrastructure/persistence/typeorm/data-source';

const PRIMARY = 'postgres://blog:secret@127.0.0.1:6432/blog';
const REPLICAS = ['postgres://blog:secret@127.0.0.1:6432/blog_replica', 'postgres://blog:secret@10.0.0.2:5432/blog'];

describe('dataSourceOptions and DATABASE_READ_URLS', () => {
  it('connects to DATABASE_URL alone when there are no read replicas', () => {
    const options = dataSourceOptions({ kind: 'postgres', url: PRIMARY, readUrls: [] });
    expect(options).toMatchObject({ type: 'postgres', url: PRIMARY });
    expect(options).not.toHaveProperty('replication');
  });

  it('gives TypeORM the primary as master and each read URL as a slave, queries on the primary unless asked', () => {
    const options = dataSourceOptions({ kind: 'postgres', url: PRIMARY, readUrls: REPLICAS });
    expect(options).toMatchObject({
      type: 'postgres',
      replication: {
        master: { url: PRIMARY },
        slaves: REPLICAS.map((url) => ({ url })),
        defaultMode: 'master',
      },
    });
    expect(options).not.toHaveProperty('url');
  });

  it('keeps the pool size and time limits for every pool, replicas included', () => {
    const options = dataSourceOptions({ kind: 'postgres', url: PRIMARY, readUrls: REPLICAS, poolSize: 4 });
    expect(options).toMatchObject({ extra: { max: 4, statement_timeout: 2_000 } });
  });
});
