// First: a Node.js line the service does not run on ends here, in one line.
import './process/refuse-unsupported-node';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './infrastructure/config/config';
import { BackupRefusedError, sqliteFileOf } from './infrastructure/persistence/sqlite-backup/backup-refused';
import { backUpSqliteFile } from './infrastructure/persistence/sqlite-backup/online-backup';
import { describeSqliteBindingFailure } from './infrastructure/persistence/typeorm/sqlite-binding-failure';

const USAGE = 'usage: npm run backup -- --to FILE';
/** Refused before anything was written (bad arguments, configuration, or nothing to back up). */
const EXIT_REFUSED = 2;

/**
 * `npm run backup -- --to FILE`: an online backup of the embedded SQLite database the service's
 * configuration names (DATABASE_URL, default data/blog.sqlite), taken while the service serves.
 * Prints `backup <file> <pages> pages <time>`: every write acknowledged before that time is in it.
 */
async function backup(): Promise<void> {
  const target = targetOf(process.argv.slice(2));
  if (target === undefined) {
    console.log(USAGE);
    return;
  }
  const source = sqliteFileOf(loadConfigOrRefuse());
  const done = await backUpSqliteFile(source, target);
  console.log(`backup ${done.file} ${done.pages} pages ${done.asOf.toISOString()}`);
}

/** The target file, or undefined for --help. */
function targetOf(args: string[]): string | undefined {
  let values: { to?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args, options: { to: { type: 'string' }, help: { type: 'boolean' } } }));
  } catch (error) {
    throw new BackupRefusedError(`${(error as Error).message} (${USAGE})`);
  }
  if (values.help) return undefined;
  if (!values.to) throw new BackupRefusedError(`--to FILE is missing (${USAGE})`);
  // npm runs scripts in the package's folder; a relative FILE means where the command was typed.
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), values.to);
}

function loadConfigOrRefuse() {
  try {
    return loadConfig(process.env).database;
  } catch (error) {
    if (error instanceof ConfigError) throw new BackupRefusedError(`Configuration error: ${error.message}`);
    throw error;
  }
}

backup().catch((error: unknown) => {
  if (error instanceof BackupRefusedError) {
    console.error(`Backup refused: ${error.message}`);
    process.exit(EXIT_REFUSED);
  }
  const cause = describeSqliteBindingFailure(error) ?? (error instanceof Error ? error.message : String(error));
  console.error(`Backup failed: ${cause}`);
  process.exit(1);
});
