import { sqliteDriverPackage } from './sqlite-driver';

const USE_POSTGRES = 'set DATABASE_URL to a PostgreSQL server';

/**
 * One line for a start that failed because the SQLite driver's native binding cannot be
 * loaded, or undefined for any other failure. The driver's own errors list a dozen searched
 * paths, an ABI number or a bare module path, and do not say what to do.
 *
 * better-sqlite3 13 ships its binaries for the common platforms inside the package. Only the
 * Node.js 20 driver, better-sqlite3 12 (sqlite-driver.ts), is built by an install script: npm
 * skips it when `allowScripts` does not allow it (npm 12) or under --ignore-scripts, leaves the
 * optional package out when the build fails, and it must be built again after a switch of
 * Node.js major.
 */
export function describeSqliteBindingFailure(error: unknown, driver = sqliteDriverPackage()): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const rebuild = `run \`npm rebuild ${driver}\` (it compiles with python3, make and g++), or ${USE_POSTGRES}`;
  // From the `bindings` package that better-sqlite3 12 loads its addon with.
  if (error.message.startsWith('Could not locate the bindings file')) {
    return `${driver}'s native SQLite binding is not built (npm did not run its install script): ${rebuild}`;
  }
  // From Node.js's dlopen when the addon was built for another Node.js major.
  const abi = /better_sqlite3\.node[\s\S]*NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(
    error.message,
  );
  if (abi) {
    return (
      `${driver}'s native SQLite binding was built for another Node.js ` +
      `(module version ${abi[1]}, this one needs ${abi[2]}): ${rebuild}`
    );
  }
  if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') return undefined;
  // The optional package itself is missing: npm leaves it out when its build fails.
  if (error.message.includes(`Cannot find module '${driver}'`)) {
    return (
      `${driver}, the SQLite driver on Node.js ${process.versions.node.split('.')[0]}, is not installed ` +
      `(npm leaves it out when its build fails): install python3, make and g++ and run \`npm install\`, ` +
      `use Node.js 22 or newer, or ${USE_POSTGRES}`
    );
  }
  // better-sqlite3 13 found no binary of its own for this platform, and none was compiled.
  if (/better_sqlite3\.node'/.test(error.message)) {
    return `better-sqlite3 ships no native SQLite binding for ${process.platform}-${process.arch}: ${USE_POSTGRES}`;
  }
  return undefined;
}
