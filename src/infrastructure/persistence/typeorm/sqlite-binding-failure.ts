/** The one command that builds better-sqlite3's native binding for the Node.js that runs it. */
export const SQLITE_REBUILD_COMMAND = 'npm rebuild better-sqlite3';

const HOW_TO_FIX =
  `run \`${SQLITE_REBUILD_COMMAND}\` (it compiles with python3, make and g++), ` +
  'or set DATABASE_URL to a PostgreSQL server';

/**
 * One line for a start that failed because better-sqlite3's native binding cannot be loaded, or
 * undefined for any other failure. The binding is built by the package's install script, which
 * npm skips when `allowScripts` does not allow it (npm 12) or under --ignore-scripts, and which
 * must run again after a switch to another Node.js major. The driver's own error lists a dozen
 * searched paths or an ABI number and does not say what to do.
 */
export function describeSqliteBindingFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  // From the `bindings` package that better-sqlite3 loads its addon with.
  if (error.message.startsWith('Could not locate the bindings file')) {
    return `better-sqlite3's native SQLite binding is not built (npm did not run its install script): ${HOW_TO_FIX}`;
  }
  // From Node.js's dlopen when the addon was built for another Node.js major.
  const abi = /better_sqlite3\.node[\s\S]*NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(
    error.message,
  );
  if (abi) {
    return (
      `better-sqlite3's native SQLite binding was built for another Node.js ` +
      `(module version ${abi[1]}, this one needs ${abi[2]}): ${HOW_TO_FIX}`
    );
  }
  return undefined;
}
