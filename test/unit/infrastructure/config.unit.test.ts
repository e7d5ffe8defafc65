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
    });
    expect(DEFAULT_SQLITE_PATH).toBe('data/blog.sqlite');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', API_TOKEN: '', BODY_LIMIT: '', LOG_LEVEL: '' })).toEqual(
      loadConfig({}),
    );
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
});
