import os from 'node:os';
import {
  ConfigError,
  DEFAULT_SQLITE_PATH,
  describeDatabase,
  loadConfig,
  parseDatabaseUrl,
} from '../../../src/infrastructure/config/config';

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
      logLevel: 'info',
      logFormat: 'json',
      corsOrigin: null,
      rateLimitPerMinute: null,
      trustProxyHops: 0,
      seedEnabled: true,
      shutdownDrainMs: 1_000,
      shutdownTimeoutMs: 10_000,
      workers: 1,
    });
    expect(DEFAULT_SQLITE_PATH).toBe('data/blog.sqlite');
  });

  it('treats empty variables as unset', () => {
    const empty = ['PORT', 'DATABASE_URL', 'API_TOKEN', 'BODY_LIMIT', 'LOG_LEVEL', 'LOG_FORMAT', 'CORS_ORIGIN']
      .concat(['RATE_LIMIT_PER_MINUTE', 'TRUST_PROXY', 'SEED_ENABLED', 'SHUTDOWN_DRAIN_MS', 'SHUTDOWN_TIMEOUT_MS'])
      .concat(['WORKERS'])
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
      ['postgres://u:p@h:5432/db', { kind: 'postgres', url: 'postgres://u:p@h:5432/db' }],
      ['postgresql://u:p@h/db', { kind: 'postgres', url: 'postgresql://u:p@h/db' }],
    ])('reads %p', (raw, database) => {
      expect(loadConfig({ DATABASE_URL: raw }).database).toEqual(database);
      expect(parseDatabaseUrl(raw)).toEqual(database);
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

  it('rejects an unknown LOG_LEVEL naming it', () => {
    expect(configErrorOf({ LOG_LEVEL: 'verbose' }).variable).toBe('LOG_LEVEL');
  });
});

describe('describeDatabase', () => {
  it('shows host, port and database of PostgreSQL, never the password or the user', () => {
    const description = describeDatabase(parseDatabaseUrl('postgres://blog:hunter2@db.example:5432/blog'));

    expect(description).toBe('PostgreSQL db.example:5432/blog');
    expect(description).not.toContain('hunter2');
  });

  it('leaves out a missing port and hides an encoded password', () => {
    const description = describeDatabase(parseDatabaseUrl('postgresql://u:p%40ss@h/db'));

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
