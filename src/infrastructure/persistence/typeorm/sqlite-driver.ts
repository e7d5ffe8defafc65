import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
export type SqliteDriver = typeof BetterSqlite3;

/**
 * The package of the SQLite driver for the Node.js line that runs this process.
 *
 * better-sqlite3 13 is the driver: built on node-addon-api, with its binaries inside the
 * package, so nothing is compiled at install. It needs Node.js 22 or newer (on 20 it crashes
 * with a segmentation fault), so on 20 the service loads better-sqlite3 12, installed under
 * the alias `better-sqlite3-node20`, instead. 12 is never loaded on a newer line: on 24.19 and
 * later it aborts the process when the garbage collector frees one of its objects (Node.js
 * issue 65446).
 *
 * The Node.js 20 path is this branch, the optional dependency in package.json and the line in
 * src/process/node-lines.ts; removing those three is the whole change (docs/adr/0001).
 */
export function sqliteDriverPackage(nodeVersion: string = process.versions.node): string {
  return Number.parseInt(nodeVersion, 10) === 20 ? 'better-sqlite3-node20' : 'better-sqlite3';
}

let driver: SqliteDriver | undefined;

/** The driver module, loaded at the first use: a service on PostgreSQL never loads it. */
export function sqliteDriver(): SqliteDriver {
  driver ??= require(sqliteDriverPackage()) as SqliteDriver;
  return driver;
}

/** Opens a connection to a SQLite file with the driver of this Node.js line. */
export function openSqliteDatabase(file: string, options?: BetterSqlite3.Options): SqliteDatabase {
  const Database = sqliteDriver();
  return new Database(file, options);
}
