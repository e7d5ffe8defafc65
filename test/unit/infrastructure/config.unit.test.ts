import os from 'node:os';
import { STANDARD_RETRY_DELAYS_MS } from '../../../src/application';
import { ConfigError, describeDatabase, loadConfig } from '../../../src/infrastructure/config/config';

/** The PostgreSQL tunables when none is set. */
const POSTGRES_DEFAULTS = { poolSize: 10, readUrls: [], replicaMaxLagMs: 1_000, preparedStatements: true };

/** The ConfigError that loading this environment fails with. */
function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, but the configuration loaded');
}

describe('loadConfig', () => {
  it('uses the defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      database: { kind: 'sqlite', path: 'data/blog.sqlite' },
      apiToken: null,
      bodyLimitBytes: 1_048_576,
      listCacheBytes: 8_388_608,
      logLevel: 'info',
      logFormat: 'json',
      corsOrigin: null,
      rateLimitPerMinute: null,
      trustProxyHops: 0,
      seedEnabled: true,
      shutdownDrainMs: 1_000,
      shutdownTimeoutMs: 10_000,
      workers: 1,
      idempotencyKeyRetentionMs: 24 * 3_600_000,
      revisionRetentionMs: 30 * 86_400_000,
      feeds: {
        publicUrl: 'http://localhost:3000',
        articleUrlTemplate: 'http://localhost:3000/article/slug/{slug}',
        size: 20,
        title: 'Blog',
      },
      webhookPrivateNetworks: false,
      webhookRetryDelaysMs: STANDARD_RETRY_DELAYS_MS,
    });
  });

  it('lets webhooks reach private networks only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).webhookPrivateNetworks).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(/^WEBHOOK_ALLOW_PRIVATE_NETWORKS: /);
  });

  it('reads WEBHOOK_RETRY_SCHEDULE as durations with their unit, 1 s to 7 d, at most 20', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s, 1.5m,2h,7d' }).webhookRetryDelaysMs).toEqual([
      5_000, 90_000, 7_200_000, 604_800_000,
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s' }).webhookRetryDelaysMs).toEqual([1_000]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,5' })).toThrow(
      'WEBHOOK_RETRY_SCHEDULE: "5" is not a duration from 1s to 7d such as 30s, 5m or 2h',
    );
    for (const bad of ['500ms', '8d', '5s,,5m', '5 apples', 'soon', '-5s']) {
      expect(configErrorOf({ WEBHOOK_RETRY_SCHEDULE: bad }).variable).toBe('WEBHOOK_RETRY_SCHEDULE');
    }
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1s').join(',') })).toThrow(
      'WEBHOOK_RETRY_SCHEDULE: has 21 delays; at most 20',
    );
  });

  it('makes feed links from PUBLIC_URL (default: the port on localhost) and ARTICLE_URL_TEMPLATE', () => {
    expect(loadConfig({ PORT: '8080' }).feeds.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://blog.example.com/' }).feeds).toMatchObject({
      publicUrl: 'https://blog.example.com',
      articleUrlTemplate: 'https://blog.example.com/article/slug/{slug}',
    });
    const template = 'https://www.example.com/posts/{id}-{slug}';
    expect(loadConfig({ ARTICLE_URL_TEMPLATE: template }).feeds.articleUrlTemplate).toBe(template);
  });

  it.each([
    [{ PUBLIC_URL: 'https://blog.example.com/news' }, /^PUBLIC_URL: expected an origin/],
    [{ PUBLIC_URL: 'blog.example.com' }, /^PUBLIC_URL: expected an origin/],
    [{ ARTICLE_URL_TEMPLATE: '/article/{slug}' }, /^ARTICLE_URL_TEMPLATE: expected an http\(s\) URL/],
    [{ ARTICLE_URL_TEMPLATE: 'ftp://example.com/{slug}' }, /^ARTICLE_URL_TEMPLATE: expected an http\(s\) URL/],
    [{ FEED_SIZE: '0' }, /^FEED_SIZE: /],
    [{ FEED_SIZE: '101' }, /^FEED_SIZE: /],
  ])('refuses the feed setting %o, naming it', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats empty variables as unset', () => {
    const empty = ['PORT', 'DATABASE_URL', 'API_TOKEN', 'BODY_LIMIT', 'LOG_LEVEL', 'LOG_FORMAT', 'CORS_ORIGIN']
      .concat(['RATE_LIMIT_PER_MINUTE', 'TRUST_PROXY', 'SEED_ENABLED', 'SHUTDOWN_DRAIN_MS', 'SHUTDOWN_TIMEOUT_MS'])
      .concat(['WORKERS', 'PG_POOL_SIZE', 'DATABASE_READ_URLS', 'REPLICA_MAX_LAG_MS', 'PG_PREPARED_STATEMENTS'])
      .concat(['IDEMPOTENCY_KEY_RETENTION_HOURS', 'PUBLIC_URL', 'ARTICLE_URL_TEMPLATE', 'FEED_SIZE', 'FEED_TITLE'])
      .concat(['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'WEBHOOK_RETRY_SCHEDULE'])
      .map((name) => [name, '']);
    expect(loadConfig(Object.fromEntries(empty))).toEqual(loadConfig({}));
  });

  it('keeps a non-empty API_TOKEN as it is', () => {
    expect(loadConfig({ API_TOKEN: ' s3cret ' }).apiToken).toBe(' s3cret ');
  });

  describe('PORT', () => {
    it.each([
      ['8080', 8080],
      ['65535', 65535],
    ])('reads %p', (raw, port) => {
      expect(loadConfig({ PORT: raw }).port).toBe(port);
    });

    it.each(['abc', '70000', '65536', '-1', '1e3', '80 ', '3000.5'])(
      'rejects %p with a one-line error naming PORT',
      (raw) => {
        const error = configErrorOf({ PORT: raw });

        expect(error.variable).toBe('PORT');
        expect(error.message).toBe(`PORT: "${raw}" is not a port number (0-65535)`);
        expect(error.message).not.toContain('\n');
      },
    );
  });

  describe('DATABASE_URL', () => {
    it.each([
      ['memory:', { kind: 'memory' }],
      ['sqlite:./x.db', { kind: 'sqlite', path: './x.db' }],
      ['sqlite:x.db', { kind: 'sqlite', path: 'x.db' }],
      ['sqlite:///tmp/x.db', { kind: 'sqlite', path: '/tmp/x.db' }],
      ['file:x.db', { kind: 'sqlite', path: 'x.db' }],
      ['file:///var/blog.sqlite', { kind: 'sqlite', path: '/var/blog.sqlite' }],
      ['postgres://u:p@h:5432/db', { kind: 'postgres', url: 'postgres://u:p@h:5432/db', ...POSTGRES_DEFAULTS }],
      ['postgresql://u:p@h/db', { kind: 'postgres', url: 'postgresql://u:p@h/db', ...POSTGRES_DEFAULTS }],
    ])('reads %p', (raw, database) => {
      expect(loadConfig({ DATABASE_URL: raw }).database).toEqual(database);
    });

    it.each(['mysql://x', 'memory', 'sqlite:', 'file:', 'postgres:/h/db', 'x.db'])(
      'rejects %p naming DATABASE_URL',
      (raw) => {
        const error = configErrorOf({ DATABASE_URL: raw });

        expect(error.variable).toBe('DATABASE_URL');
        expect(error.message).toMatch(/^DATABASE_URL: /);
      },
    );

    it('rejects "sqlite://", which has no path', () => {
      expect(configErrorOf({ DATABASE_URL: 'sqlite://' }).variable).toBe('DATABASE_URL');
    });
  });

  describe('BODY_LIMIT', () => {
    it.each([
      ['512kb', 524_288],
      ['1mb', 1_048_576],
      ['1MB', 1_048_576],
      ['2048', 2048],
    ])('reads %p as %p bytes', (raw, limit) => {
      expect(loadConfig({ BODY_LIMIT: raw }).bodyLimitBytes).toBe(limit);
    });

    it.each(['lots', '0', '-1kb', 'Infinity'])('rejects %p naming BODY_LIMIT', (raw) => {
      expect(configErrorOf({ BODY_LIMIT: raw })).toMatchObject({
        variable: 'BODY_LIMIT',
        message: `BODY_LIMIT: "${raw}" is not a size such as 1mb or 512kb`,
      });
    });

    it.each(['1m', '10 apples', '1e3'])('rejects %p rather than reading its leading digits as bytes', (raw) => {
      expect(configErrorOf({ BODY_LIMIT: raw }).variable).toBe('BODY_LIMIT');
    });
  });

  describe('LIST_CACHE_SIZE', () => {
    it.each([
      ['0', 0],
      ['512kb', 524_288],
      ['16mb', 16_777_216],
    ])('reads %p as %p bytes', (raw, limit) => {
      expect(loadConfig({ LIST_CACHE_SIZE: raw }).listCacheBytes).toBe(limit);
    });

    it.each(['lots', '-1kb', 'Infinity', '1e3'])('rejects %p naming LIST_CACHE_SIZE', (raw) => {
      expect(configErrorOf({ LIST_CACHE_SIZE: raw }).variable).toBe('LIST_CACHE_SIZE');
    });
  });

  describe('PostgreSQL tunables', () => {
    const postgres = { DATABASE_URL: 'postgres://u:p@primary.example/blog' };

    it('puts them on the PostgreSQL database', () => {
      const config = loadConfig({
        ...postgres,
        PG_POOL_SIZE: '25',
        DATABASE_READ_URLS: 'postgres://u:p@r1.example/blog, postgresql://u:p@r2.example:6432/blog',
        REPLICA_MAX_LAG_MS: '250',
        PG_PREPARED_STATEMENTS: 'false',
      });

      expect(config.database).toEqual({
        kind: 'postgres',
        url: 'postgres://u:p@primary.example/blog',
        poolSize: 25,
        readUrls: ['postgres://u:p@r1.example/blog', 'postgresql://u:p@r2.example:6432/blog'],
        replicaMaxLagMs: 250,
        preparedStatements: false,
      });
    });

    it.each(['0', '1001', 'ten', '-1'])('rejects the PG_POOL_SIZE %p, naming the bounds', (raw) => {
      expect(configErrorOf({ ...postgres, PG_POOL_SIZE: raw }).message).toBe(
        `PG_POOL_SIZE: "${raw}" is not a whole number from 1 to 1000`,
      );
    });

    it('rejects a read replica URL by its position, without repeating it (it may hold a password)', () => {
      const error = configErrorOf({
        ...postgres,
        DATABASE_READ_URLS: 'postgres://u:p@r1.example/blog,mysql://u:hunter2@r2',
      });

      expect(error.message).toBe('DATABASE_READ_URLS: entry 2 is not a postgres://… URL');
      expect(configErrorOf({ ...postgres, DATABASE_READ_URLS: 'postgres://u:p@r1.example/blog,' }).variable).toBe(
        'DATABASE_READ_URLS',
      );
    });

    it('refuses read replicas when the database is not PostgreSQL', () => {
      expect(configErrorOf({ DATABASE_READ_URLS: 'postgres://u:p@r1.example/blog' }).message).toBe(
        'DATABASE_READ_URLS: read replicas need a PostgreSQL DATABASE_URL',
      );
    });

    it('reads PG_PREPARED_STATEMENTS as true or false only, and bounds REPLICA_MAX_LAG_MS', () => {
      expect(configErrorOf({ ...postgres, PG_PREPARED_STATEMENTS: 'off' }).message).toBe(
        'PG_PREPARED_STATEMENTS: expected one of true, false',
      );
      expect(configErrorOf({ ...postgres, REPLICA_MAX_LAG_MS: '3600001' }).variable).toBe('REPLICA_MAX_LAG_MS');
    });

    it('leaves SQLite and memory without them', () => {
      expect(loadConfig({ DATABASE_URL: 'memory:', PG_POOL_SIZE: '5' }).database).toEqual({ kind: 'memory' });
    });
  });

  it('reports a bad value as itself before any rule across variables', () => {
    expect(configErrorOf({ SHUTDOWN_TIMEOUT_MS: '1000', SHUTDOWN_DRAIN_MS: 'soon' }).message).toBe(
      'SHUTDOWN_DRAIN_MS: "soon" is not a whole number from 0 to 600000',
    );
    expect(configErrorOf({ WORKERS: '2', DATABASE_URL: 'mysql://x' }).variable).toBe('DATABASE_URL');
  });

  it('rejects an unknown LOG_LEVEL naming it', () => {
    expect(configErrorOf({ LOG_LEVEL: 'verbose' }).variable).toBe('LOG_LEVEL');
  });
});

describe('describeDatabase', () => {
  it('shows host, port and database of PostgreSQL, never the password or the user', () => {
    const description = describeDatabase(
      loadConfig({ DATABASE_URL: 'postgres://blog:hunter2@db.example:5432/blog' }).database,
    );

    expect(description).toBe('PostgreSQL db.example:5432/blog');
    expect(description).not.toContain('hunter2');
  });

  it('leaves out a missing port and hides an encoded password', () => {
    const description = describeDatabase(loadConfig({ DATABASE_URL: 'postgresql://u:p%40ss@h/db' }).database);

    expect(description).toBe('PostgreSQL h/db');
    expect(description).not.toMatch(/p%40ss|p@ss/);
  });

  it('describes SQLite and memory', () => {
    expect(describeDatabase({ kind: 'sqlite', path: '/tmp/x.db' })).toBe('SQLite file /tmp/x.db');
    expect(describeDatabase({ kind: 'memory' })).toBe('in-memory store (data is lost at exit)');
  });

  describe('operations variables', () => {
    it('reads CORS_ORIGIN as off, any origin, or a list of origins', () => {
      expect(loadConfig({ CORS_ORIGIN: '*' }).corsOrigin).toBe('*');
      expect(loadConfig({ CORS_ORIGIN: 'https://a.example, http://localhost:5173' }).corsOrigin).toEqual([
        'https://a.example',
        'http://localhost:5173',
      ]);
    });

    it.each(['a.example', 'https://a.example/', 'https://a.example/path', 'https://a.example,'])(
      'rejects the CORS_ORIGIN %p, naming the variable',
      (raw) => {
        expect(configErrorOf({ CORS_ORIGIN: raw }).message).toMatch(/^CORS_ORIGIN: ".*" is not an origin/);
      },
    );

    it('reads RATE_LIMIT_PER_MINUTE, with 0 meaning off', () => {
      expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '120' }).rateLimitPerMinute).toBe(120);
      expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBeNull();
      expect(configErrorOf({ RATE_LIMIT_PER_MINUTE: '-5' }).message).toBe(
        'RATE_LIMIT_PER_MINUTE: "-5" is not a whole number from 0 to 1000000',
      );
    });

    it('reads SEED_ENABLED as true or false only', () => {
      expect(loadConfig({ SEED_ENABLED: 'false' }).seedEnabled).toBe(false);
      expect(loadConfig({ SEED_ENABLED: 'true' }).seedEnabled).toBe(true);
      expect(configErrorOf({ SEED_ENABLED: 'no' }).message).toBe('SEED_ENABLED: expected one of true, false');
    });

    it('reads LOG_FORMAT and TRUST_PROXY', () => {
      expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
      expect(configErrorOf({ LOG_FORMAT: 'xml' }).variable).toBe('LOG_FORMAT');
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxyHops).toBe(2);
      expect(configErrorOf({ TRUST_PROXY: 'yes' }).variable).toBe('TRUST_PROXY');
    });

    it('reads REVISION_RETENTION_DAYS as whole days, 1 to 36500', () => {
      expect(loadConfig({ REVISION_RETENTION_DAYS: '7' }).revisionRetentionMs).toBe(7 * 86_400_000);
      expect(configErrorOf({ REVISION_RETENTION_DAYS: '0' }).variable).toBe('REVISION_RETENTION_DAYS');
      expect(configErrorOf({ REVISION_RETENTION_DAYS: '2.5' }).variable).toBe('REVISION_RETENTION_DAYS');
      expect(configErrorOf({ REVISION_RETENTION_DAYS: '36501' }).variable).toBe('REVISION_RETENTION_DAYS');
    });

    it('reads IDEMPOTENCY_KEY_RETENTION_HOURS as whole hours, 1 to 8760', () => {
      expect(loadConfig({ IDEMPOTENCY_KEY_RETENTION_HOURS: '48' }).idempotencyKeyRetentionMs).toBe(48 * 3_600_000);
      expect(configErrorOf({ IDEMPOTENCY_KEY_RETENTION_HOURS: '0' }).variable).toBe('IDEMPOTENCY_KEY_RETENTION_HOURS');
      expect(configErrorOf({ IDEMPOTENCY_KEY_RETENTION_HOURS: '1.5' }).variable).toBe(
        'IDEMPOTENCY_KEY_RETENTION_HOURS',
      );
      expect(configErrorOf({ IDEMPOTENCY_KEY_RETENTION_HOURS: '8761' }).variable).toBe(
        'IDEMPOTENCY_KEY_RETENTION_HOURS',
      );
    });

    it('reads WORKERS as a count or auto, and refuses several workers on the memory store', () => {
      expect(loadConfig({ WORKERS: '2' }).workers).toBe(2);
      expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
      expect(configErrorOf({ WORKERS: '0' }).variable).toBe('WORKERS');
      expect(configErrorOf({ WORKERS: '2', DATABASE_URL: 'memory:' }).message).toMatch(/^WORKERS: each worker/);
      expect(loadConfig({ WORKERS: '1', DATABASE_URL: 'memory:' }).workers).toBe(1);
    });

    it('needs the drain to be shorter than the whole shutdown', () => {
      expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '3000', SHUTDOWN_DRAIN_MS: '0' })).toMatchObject({
        shutdownTimeoutMs: 3000,
        shutdownDrainMs: 0,
      });
      expect(configErrorOf({ SHUTDOWN_TIMEOUT_MS: '1000' }).message).toBe(
        'SHUTDOWN_DRAIN_MS: must be shorter than SHUTDOWN_TIMEOUT_MS (1000)',
      );
      expect(configErrorOf({ SHUTDOWN_TIMEOUT_MS: '0' }).variable).toBe('SHUTDOWN_TIMEOUT_MS');
    });
  });
});
