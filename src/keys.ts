// First: a Node.js line the service does not run on ends here, in one line.
import './process/refuse-unsupported-node';
import { parseArgs } from 'node:util';
import {
  ADMIN_WITHOUT_AUTHOR,
  CreateKey,
  type KeyRepository,
  ListKeys,
  RevokeKey,
  type StoredKey,
} from './application';
import { DomainError, StorageUnavailableError } from './domain';
import { ConfigError, describeDatabase, loadConfig } from './infrastructure/config/config';
import { openDataSource } from './infrastructure/persistence/typeorm/data-source';
import { TypeOrmKeyRepository } from './infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { describeSqliteBindingFailure } from './infrastructure/persistence/typeorm/sqlite-binding-failure';
import { NodeTokenSecrets } from './infrastructure/security/node-token-secrets';
import { SystemClock } from './infrastructure/time/system-clock';

const USAGE = [
  'usage: npm run keys -- create --author NAME --role contributor|author|editor|admin [--expires-in DAYS]',
  '       npm run keys -- list',
  '       npm run keys -- revoke ID',
].join('\n');
/** Refused before anything was written: bad arguments, configuration, or a rule of the key. */
const EXIT_REFUSED = 2;

class UsageError extends Error {}

/**
 * `npm run keys`: the operator's way to hand out, list and revoke writers' keys on the database
 * DATABASE_URL names, as an admin (the first admin key can only come from here or API_TOKEN).
 * A new token is printed once; only its SHA-256 is stored.
 */
async function keys(args: string[]): Promise<void> {
  const { positionals, values } = parseOrRefuse(args);
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) return console.log(USAGE);
  const config = loadConfig(process.env);
  if (config.database.kind === 'memory') {
    throw new UsageError('DATABASE_URL=memory: keys live in the service process only; create them over HTTP');
  }
  const dataSource = await openDataSource(config.database);
  try {
    const repository = new TypeOrmKeyRepository(dataSource);
    await run(command, rest, values, repository);
  } finally {
    await dataSource.destroy();
  }
  console.error(`(${describeDatabase(config.database)})`);
}

type Options = ReturnType<typeof parseOrRefuse>['values'];

async function run(command: string, rest: string[], values: Options, repository: KeyRepository): Promise<void> {
  const clock = new SystemClock();
  if (command === 'create' && rest.length === 0) {
    const expiresInDays = values['expires-in'] === undefined ? undefined : Number(values['expires-in']);
    const created = await new CreateKey(repository, new NodeTokenSecrets(), clock, null).execute(
      { author: values.author ?? '', role: values.role ?? '', expiresInDays },
      ADMIN_WITHOUT_AUTHOR,
    );
    console.log(created.token);
    console.error(`key ${describe(created.key)}: the token above is shown this once; keep it secret`);
  } else if (command === 'list' && rest.length === 0) {
    for (const key of await new ListKeys(repository).execute(ADMIN_WITHOUT_AUTHOR)) console.log(describe(key));
  } else if (command === 'revoke' && rest.length === 1) {
    const revoked = await new RevokeKey(repository, clock, null).execute({ id: rest[0] ?? '' }, ADMIN_WITHOUT_AUTHOR);
    console.log(`revoked ${describe(revoked)}; every instance refuses it within a second`);
  } else {
    throw new UsageError(`unknown command "${[command, ...rest].join(' ')}"\n${USAGE}`);
  }
}

/** One line per key: id, prefix, role, author, and its dates. */
function describe(key: StoredKey): string {
  const state = key.revokedAt
    ? `revoked ${key.revokedAt.toISOString()}`
    : key.expiresAt
      ? `expires ${key.expiresAt.toISOString()}`
      : 'no expiry';
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt.toISOString()}` : 'never used';
  return `${key.id} ${key.prefix}… ${key.role} "${key.author.name}" (${key.author.slug}) created ${key.createdAt.toISOString()}, ${state}, ${used}`;
}

function parseOrRefuse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        author: { type: 'string' },
        role: { type: 'string' },
        'expires-in': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

keys(process.argv.slice(2)).catch((error: unknown) => {
  const refused =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    (error instanceof DomainError && !(error instanceof StorageUnavailableError));
  const message = describeSqliteBindingFailure(error) ?? (error instanceof Error ? error.message : String(error));
  console.error(`keys: ${message}`);
  process.exit(refused ? EXIT_REFUSED : 1);
});
