import fs from 'node:fs';
import path from 'node:path';
import { openSqliteDatabase } from '../typeorm/sqlite-driver';
import { BackupRefusedError } from './backup-refused';

export interface FinishedBackup {
  /** The backup, as an absolute path. */
  readonly file: string;
  /** Database pages copied (the database's size in pages at the snapshot). */
  readonly pages: number;
  /** Just before the snapshot was taken: every write acknowledged before this moment is in the file. */
  readonly asOf: Date;
}

/**
 * better-sqlite3's largest step. The whole copy is one step on purpose: a step reads under one
 * read transaction, which in WAL mode is a snapshot that never blocks the service's writers. In
 * several steps, a commit by the service between two of them restarts the copy from page one
 * (SQLite's backup API restarts whenever another connection changes the source), which under
 * steady writes may never finish.
 */
const ALL_PAGES = 0x7fffffff;

/** The files SQLite may create beside a database it writes. */
const SIDE_FILES = ['', '-journal', '-wal', '-shm'];

/**
 * An online backup of the SQLite file `source` into `target`, through SQLite's backup API, while
 * the service goes on serving from it. The copy goes to a temporary file beside the target and
 * is renamed only once complete and on disk, so a failed backup never leaves part of a file
 * under the target's name. Refused (nothing written) when the source is missing, the target
 * exists or its folder does not.
 */
export async function backUpSqliteFile(source: string, target: string): Promise<FinishedBackup> {
  const file = path.resolve(target);
  refuseUnusable(source, file);
  const partial = `${file}.${process.pid}.partial`;
  const database = openSqliteDatabase(source, { readonly: true, fileMustExist: true });
  let asOf = new Date();
  try {
    const { totalPages } = await database.backup(partial, {
      progress: () => {
        asOf = new Date();
        return ALL_PAGES;
      },
    });
    syncFile(partial);
    fs.renameSync(partial, file);
    // The new name on disk too; Windows cannot open a folder to sync it (and needs no such sync).
    if (process.platform !== 'win32') syncFile(path.dirname(file));
    return { file, pages: totalPages, asOf };
  } catch (error) {
    for (const suffix of SIDE_FILES) fs.rmSync(`${partial}${suffix}`, { force: true });
    throw error;
  } finally {
    database.close();
  }
}

function refuseUnusable(source: string, file: string): void {
  if (!fs.existsSync(source)) throw new BackupRefusedError(`no SQLite database at ${source} (DATABASE_URL)`);
  // lstat: a dangling symbolic link counts as an existing target too.
  if (fs.lstatSync(file, { throwIfNoEntry: false })) {
    throw new BackupRefusedError(`${file} exists; remove it or name another file`);
  }
  if (!fs.statSync(path.dirname(file), { throwIfNoEntry: false })?.isDirectory()) {
    throw new BackupRefusedError(`${path.dirname(file)} is not a folder`);
  }
}

/** fsync: the copy and its name survive a crash of the machine right after the command says done. */
function syncFile(file: string): void {
  const descriptor = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(descriptor);
  } finally {
    fs.closeSync(descriptor);
  }
}
