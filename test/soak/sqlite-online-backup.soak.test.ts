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
/** Backups taken one after another while the clients write, each at another moment of the WAL's cycle. */
const BACKUPS = 3;
/** Creates before each backup: enough that many commits sit in the WAL, not yet in the main file. */
const WRITES_BEFORE_EACH_MS = 1_000;

/** The success line of `npm run backup` (which builds, then runs dist/src/backup.js as this test does). */
const DONE_LINE = /^backup (\S+) (\d+) pages (\d{4}-\d\d-\d\dT[\d:.]+Z)\n$/;

interface TakenBackup {
  file: string;
  /** Date.now() when the command was started, and when it had exited. */
  began: number;
  ended: number;
  result: Awaited<ReturnType<typeof runScriptToExit>>;
}

/**
 * `npm run backup -- --to FILE` while the built service serves 20 clients creating articles on
 * its SQLite file: each backup passes integrity_check, and a service started on a copy of it
 * (the README's restore) holds every create acknowledged before the backup began (indeed before
 * the snapshot time it prints), as sent, and nothing else. A plain copy of the database file
 * fails this (commits still in the WAL are missing), and so does the backup API in steps of 100
 * pages on a larger file (the service's commits restart it, and it never ends).
 */
describe('the online backup of the embedded SQLite under 20 writing clients', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-backup-'));
  });
  afterAll(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it(`takes ${BACKUPS} backups that each hold every create acknowledged before it, and restore`, async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(workDir, 'blog.sqlite')}` };
    const service = await startService(env, workDir);
    const writers = new CreatingClients(service.baseUrl, CLIENTS).start();
    const backups: TakenBackup[] = [];
    try {
      for (let number = 0; number < BACKUPS; number++) {
        await sleep(WRITES_BEFORE_EACH_MS);
        const file = path.join(workDir, `backup-${number}.sqlite`);
        const began = Date.now();
        const result = await runScriptToExit(['backup.js', '--to', file], env, workDir);
        backups.push({ file, began, ended: Date.now(), result });
      }
    } finally {
      await writers.stop();
      await stopService(service);
    }
    expect(writers.failures).toEqual([]);

    for (const backup of backups) {
      const { result } = backup;
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const [, file, pages, asOf] = result.stdout.match(DONE_LINE) ?? [];
      expect(file).toBe(backup.file);
      const snapshotAt = Date.parse(asOf ?? '');
      expect(snapshotAt).toBeGreaterThanOrEqual(backup.began);
      const beforeBegan = writers.acknowledgedBefore(backup.began);
      const beforeSnapshot = writers.acknowledgedBefore(snapshotAt);
      const duringRun = writers.acknowledgedBefore(backup.ended).length - beforeBegan.length;
      console.log(
        `${path.basename(backup.file)}: ${pages} pages in ${backup.ended - backup.began} ms; creates acknowledged ` +
          `before it began ${beforeBegan.length}, before its snapshot ${beforeSnapshot.length}, while it ran ${duringRun}`,
      );
      expect(beforeBegan.length).toBeGreaterThan(CLIENTS);
      // The service went on writing while the backup ran: online, not a pause.
      expect(duringRun).toBeGreaterThan(0);
      expect(integrityOf(backup.file)).toEqual(['ok']);

      const stored = await restoredArticles(backup.file, workDir);
      expect(missingOrChanged(beforeSnapshot, stored)).toEqual([]);
      expect(notSent(writers.acknowledged, stored)).toEqual([]);
    }
  }, 120_000);
});

/** The README's restore (the backup copied to the database's name, no -wal or -shm), started and read back. */
async function restoredArticles(backupFile: string, workDir: string): Promise<ArticleAnswer[]> {
  const restoredFile = path.join(workDir, `restored-${path.basename(backupFile)}`);
  fs.copyFileSync(backupFile, restoredFile);
  const restored = await startService({ DATABASE_URL: `sqlite:${restoredFile}` }, workDir);
  try {
    return (await readStoredData(restored.baseUrl)).articles;
  } finally {
    await stopService(restored);
  }
}

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

/**
 * Stored articles that are no acknowledged create as sent. The clients stop only after the last
 * backup, so every create a backup can hold was answered by then.
 */
function notSent(creates: readonly AcknowledgedCreate[], articles: readonly ArticleAnswer[]): number[] {
  const sent = new Map(creates.map((create) => [create.id, create.state]));
  return articles
    .filter((article) => {
      const state = sent.get(article.id);
      return !state || !sameState(state, stateOf(article));
    })
    .map((article) => article.id);
}

function integrityOf(file: string): string[] {
  const db = openSqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
  } finally {
    db.close();
  }
}
