import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeSqliteBindingFailure } from '../../../src/infrastructure/persistence/typeorm/sqlite-binding-failure';

/** What better-sqlite3 12 throws when its addon was never built: the `bindings` package's own error. */
function missingBindingError(): Error {
  const emptyPackage = fs.mkdtempSync(path.join(os.tmpdir(), 'no-binding-'));
  try {
    // better-sqlite3 loads its addon with `bindings`; asked for it under a package root with no build.
    const bindings = require('bindings') as (options: object) => unknown;
    bindings({ bindings: 'better_sqlite3.node', module_root: emptyPackage });
  } catch (error) {
    return error as Error;
  } finally {
    fs.rmSync(emptyPackage, { recursive: true, force: true });
  }
  throw new Error('bindings loaded an addon that does not exist');
}

/** Node's own error for a module that cannot be found. */
function moduleNotFound(request: string): Error {
  try {
    require(path.join(os.tmpdir(), 'no-such-dir', 'x.js'));
  } catch (error) {
    const notFound = error as NodeJS.ErrnoException;
    return Object.assign(new Error(`Cannot find module '${request}'\nRequire stack:\n- /srv/app/x.js`), {
      code: notFound.code,
    });
  }
  throw new Error('a module that does not exist was found');
}

describe('describeSqliteBindingFailure', () => {
  it('turns the missing-addon error, a dozen searched paths, into one line with the fix', () => {
    const error = missingBindingError();
    expect(error.message.split('\n').length).toBeGreaterThan(5);
    const line = describeSqliteBindingFailure(error, 'better-sqlite3-node20');
    expect(line).toContain("better-sqlite3-node20's native SQLite binding is not built");
    expect(line).toContain('`npm rebuild better-sqlite3-node20`');
    expect(line).not.toContain('\n');
  });

  it('names both module versions when the addon was built for another Node.js', () => {
    // Node.js's dlopen message, as on a Node 20 running an addon built for Node 24.
    const error = new Error(
      "The module '/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
        'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 137. This version of Node.js requires\n' +
        'NODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).',
    );
    const line = describeSqliteBindingFailure(error, 'better-sqlite3-node20');
    expect(line).toContain('built for another Node.js (module version 137, this one needs 115)');
    expect(line).toContain('`npm rebuild better-sqlite3-node20`');
    expect(line).not.toContain('\n');
  });

  it('says what to do when the Node.js 20 driver was left out of the install', () => {
    const error = moduleNotFound('better-sqlite3-node20');
    const line = describeSqliteBindingFailure(error, 'better-sqlite3-node20');
    expect(line).toMatch(/^better-sqlite3-node20, the SQLite driver on Node.js \d+, is not installed/);
    expect(line).toContain('`npm install`');
    expect(line).toContain('Node.js 22 or newer');
    expect(line).not.toContain('\n');
  });

  it('names the platform when better-sqlite3 ships no binary for it', () => {
    // What better-sqlite3 13 throws: it falls back to the path a source build would have used.
    const error = moduleNotFound('/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const line = describeSqliteBindingFailure(error, 'better-sqlite3');
    expect(line).toBe(
      `better-sqlite3 ships no native SQLite binding for ${process.platform}-${process.arch}: ` +
        'set DATABASE_URL to a PostgreSQL server',
    );
  });

  it('leaves every other failure to the caller', () => {
    expect(describeSqliteBindingFailure(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBeUndefined();
    expect(
      describeSqliteBindingFailure(
        new Error('The module /x/other.node was compiled against NODE_MODULE_VERSION 1 ... NODE_MODULE_VERSION 2'),
      ),
    ).toBeUndefined();
    expect(describeSqliteBindingFailure('not an error')).toBeUndefined();
    expect(describeSqliteBindingFailure(moduleNotFound('express'), 'better-sqlite3')).toBeUndefined();
  });
});
