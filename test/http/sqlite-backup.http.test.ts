import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDatabase } from '../../src/infrastructure/persistence/typeorm/sqlite-driver';
import { runScriptToExit } from '../support/service-process';

/**
 * `npm run backup -- --to FILE` as a process (dist/src/backup.js, which the script runs after
 * building): what cannot be backed up is refused in one line with exit 2 and nothing written, and
 * a backup that fails leaves no file. Backups under writes: test/soak/sqlite-online-backup.soak.test.ts.
 */
describe('npm run backup on the embedded SQLite', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-backup-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  describe('refuses with one line and exit 2, writing nothing', () => {
    let database: string;
    let existing: string;
    beforeEach(() => {
      database = path.join(workDir, 'blog.sqlite');
      const db = openSqliteDatabase(database);
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE article (id INTEGER PRIMARY KEY)');
      db.close();
      existing = path.join(workDir, 'existing.sqlite');
      fs.writeFileSync(existing, 'an earlier backup');
    });

    it.each([
      ['no --to', [], {}, /--to FILE is missing \(usage: npm run backup -- --to FILE\)$/],
      ['--to without a file', ['--to'], {}, /argument missing/],
      ['an unknown option', ['--to', 'b.sqlite', '--force'], {}, /Unknown option '--force'/],
      [
        'an existing target',
        ['--to', 'existing.sqlite'],
        {},
        /existing\.sqlite exists; remove it or name another file$/,
      ],
      ['a target in no folder', ['--to', 'nowhere/b.sqlite'], {}, /nowhere is not a folder$/],
      [
        'PostgreSQL',
        ['--to', 'b.sqlite'],
        { DATABASE_URL: 'postgres://u:p@localhost/blog' },
        /pgBackRest or with pg_dump/,
      ],
      ['the in-memory store', ['--to', 'b.sqlite'], { DATABASE_URL: 'memory:' }, /nothing on disk to back up$/],
      ['no database file', ['--to', 'b.sqlite'], { DATABASE_URL: 'sqlite:absent.sqlite' }, /no SQLite database at /],
      ['a bad variable', ['--to', 'b.sqlite'], { PORT: 'abc' }, /Configuration error: PORT: /],
    ])('%s', async (_case, args, env, message) => {
      const before = listing(workDir);
      const result = await runScriptToExit(
        ['backup.js', ...args],
        { DATABASE_URL: `sqlite:${database}`, ...env },
        workDir,
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Backup refused: [^\n]+\n$/);
      expect(result.stderr.trim()).toMatch(message);
      expect(listing(workDir)).toEqual(before);
      expect(fs.readFileSync(existing, 'utf8')).toBe('an earlier backup');
    });
  });

  it('leaves nothing under the target, and no partial file, when the backup fails', async () => {
    const notADatabase = path.join(workDir, 'blog.sqlite');
    fs.writeFileSync(
      notADatabase,
      'this is not an SQLite database, though it is long enough to look like one. '.repeat(20),
    );
    const result = await runScriptToExit(
      ['backup.js', '--to', 'b.sqlite'],
      { DATABASE_URL: `sqlite:${notADatabase}` },
      workDir,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Backup failed: [^\n]+\n$/);
    expect(fs.readdirSync(workDir)).toEqual(['blog.sqlite']);
  });
});

/** Each file of a folder with its size and last change, to see that nothing was written. */
function listing(folder: string): string[] {
  return fs
    .readdirSync(folder)
    .sort()
    .map((name) => {
      const stat = fs.statSync(path.join(folder, name));
      return `${name} ${stat.size} ${stat.mtimeMs}`;
    });
}
