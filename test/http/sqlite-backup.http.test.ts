import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqliteDatabase } from '../../src/infrastructure/persistence/typeorm/sqlite-driver';
import { type AcknowledgedCreate, CreatingClients } from '../support/load/acknowledged-creates';
import { type ArticleAnswer, sameState, stateOf } from '../support/load/article-state';
import { readStoredData } from '../support/load/durability-check';
import { runScriptToExit, startService, stopService } from '../support/service-process';

const CLIENTS = 20;
/** Creates before the backup: enough that many commits are still in the WAL, not yet in the main file. */
const WRITES_BEFORE_BACKUP_MS = 1_500;

/** What `npm run backup` prints on success (the command runs dist/src/backup.js after building). */
const DONE_LINE = /^backup (\S+) (\d+) pages (\d{4}-\d\d-\d\dT[\d:.]+Z)\n$/;

/**
 * `npm run backup -- --to FILE` as a process, beside the built service: an online backup under
 * writes holds every acknowledged create, and restores as the README says; what cannot be backed
 * up is refused in one line with exit 2 and nothing written.
 */
describe('npm run backup on the embedded SQLite', () => {
  let workDir: string;
  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-backup-'));
  });
  afterEach(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('backs up under 20 writing clients every create acknowledged before it began, and restores', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(workDir, 'blog.sqlite')}` };
    const backupFile = path.join(workDir, 'backup.sqlite');
    const service = await startService(env, workDir);
    const writers = new CreatingClients(service.baseUrl, CLIENTS).start();
    let began = 0;
    let ended = 0;
    let result: Awaited<ReturnType<typeof runScriptToExit>>;
    try {
      await sleep(WRITES_BEFORE_BACKUP_MS);
      began = performance.now();
      result = await runScriptToExit(['backup.js', '--to', backupFile], env, workDir);
      ended = performance.now();
    } finally {
      await writers.stop();
      await stopService(service);
    }
    const before = writers.acknowledgedBefore(began);
    const during = writers.acknowledgedBefore(ended).length - before.length;
    console.log(
      `backup under ${CLIENTS} clients: ${before.length} creates acknowledged before it, ${during} during its ` +
        `${Math.round(ended - began)} ms, ${writers.acknowledged.length} in all; ${result.stdout.trim()}`,
    );

    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(DONE_LINE);
    expect(result.stdout.match(DONE_LINE)?.[1]).toBe(backupFile);
    expect(writers.failures).toEqual([]);
    expect(before.length).toBeGreaterThan(CLIENTS);
    // The service went on writing while the backup ran: it was online, not a pause.
    expect(during).toBeGreaterThan(0);
    expect(fs.readdirSync(workDir).filter((name) => name.startsWith('backup.sqlite'))).toEqual(['backup.sqlite']);
    expect(integrityOf(backupFile)).toEqual(['ok']);

    // The README's restore: the backup copied over the database file (no -wal or -shm), then start.
    const restoredFile = path.join(workDir, 'restored.sqlite');
    fs.copyFileSync(backupFile, restoredFile);
    const restored = await startService({ DATABASE_URL: `sqlite:${restoredFile}` }, workDir);
    try {
      const { articles } = await readStoredData(restored.baseUrl);
      expect(missingOrChanged(before, articles)).toEqual([]);
      // Nothing else: every stored article is a create that was sent, whole.
      const sent = new Map(writers.acknowledged.map((create) => [create.state.content, create.state]));
      const foreign = articles.filter((article) => {
        const state = sent.get(article.content);
        return !state || !sameState(state, stateOf(article));
      });
      expect(foreign).toEqual([]);
    } finally {
      await stopService(restored);
    }
  }, 60_000);

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

/** The acknowledged creates that the stored articles do not hold as sent. */
function missingOrChanged(creates: readonly AcknowledgedCreate[], articles: readonly ArticleAnswer[]): string[] {
  const byId = new Map(articles.map((article) => [article.id, article]));
  return creates
    .filter((create) => {
      const article = byId.get(create.id);
      return !article || !sameState(create.state, stateOf(article));
    })
    .map((create) => `${create.id}: ${create.state.content}`);
}

function integrityOf(file: string): string[] {
  const db = openSqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
  } finally {
    db.close();
  }
}

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
