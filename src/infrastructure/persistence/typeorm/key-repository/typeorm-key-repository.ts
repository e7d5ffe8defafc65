import { createId } from '@paralleldrive/cuid2';
import type { DataSource } from 'typeorm';
import type { KeyChanges, KeyRepository, NewKey, StoredKey } from '../../../../application';
import { type Author, type Role, StorageUnavailableError, slugCandidates, slugFromTitle } from '../../../../domain';
import { type SqlSessions, WRITE } from '../article-repository/sql-sessions';
import { inTransaction } from '../article-repository/transaction';
import { type PrimaryOnlyOptions, primaryOnlySessions } from '../primary-only-sessions';
import type { SqlConnection } from '../sql-connection';
import { type SqlDialect, sqlDialectOf } from '../sql-dialect';
import { type KeyStatements, keyStatements } from './key-statements';

/** Reaching the primary (primary-only-sessions.ts): keys are untraced (ADR 0044). */
export type TypeOrmKeyRepositoryOptions = PrimaryOnlyOptions;

/** A row of key_statements' key reads: instants in epoch ms. */
interface KeyRow {
  id: string;
  prefix: string;
  role: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  authorId: string;
  authorName: string;
  authorSlug: string;
}

/** Tries of an author's create whose slug concurrent creates keep taking first; then a 503. */
const MAX_SLUG_TRIES = 25;
const CANDIDATES_PER_READ = 50;

/**
 * API keys and their authors on PostgreSQL or SQLite, as the KeyRepository port. Every read and
 * write goes to the primary: whether a key is valid, revoked or an admin's is a security
 * decision, never taken on a replica that may lag. On SQLite it shares the article
 * repository's one-at-a-time sessions of the data source (sqliteSessionsOf).
 */
export class TypeOrmKeyRepository implements KeyRepository {
  private readonly sessions: SqlSessions;
  private readonly dialect: SqlDialect;
  private readonly sql: KeyStatements;

  constructor(dataSource: DataSource, options: TypeOrmKeyRepositoryOptions = {}) {
    this.dialect = sqlDialectOf(dataSource.options);
    this.sql = keyStatements(this.dialect);
    this.sessions = primaryOnlySessions(dataSource, this.dialect, options);
  }

  create(key: NewKey): Promise<StoredKey> {
    const { encodeTimestamp } = this.dialect;
    return this.sessions.inSession(WRITE, (connection) =>
      inTransaction(connection, this.sql, async () => {
        const author = await this.authorNamed(connection, key.authorName, key.createdAt);
        await connection.query(this.sql.insertKey, [
          key.id,
          key.tokenHash,
          key.prefix,
          key.role,
          author.id,
          encodeTimestamp(key.createdAt),
          key.expiresAt === null ? null : encodeTimestamp(key.expiresAt),
        ]);
        return { ...storedOf(key), author };
      }),
    );
  }

  list(): Promise<StoredKey[]> {
    return this.sessions.inSession(WRITE, async (connection) =>
      (await connection.query<KeyRow>(this.sql.listKeys, [])).map(keyOf),
    );
  }

  revoke(id: string, at: Date): Promise<StoredKey | null> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const [revoked] = await connection.query(this.sql.revokeKey, [id, this.dialect.encodeTimestamp(at)]);
      if (!revoked) return null;
      const [row] = await connection.query<KeyRow>(this.sql.findKey, [id]);
      return row ? keyOf(row) : null;
    });
  }

  findByTokenHash(tokenHash: string): Promise<StoredKey | null> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const [row] = await connection.query<KeyRow>(this.sql.findKeyByTokenHash, [tokenHash]);
      return row ? keyOf(row) : null;
    });
  }

  changesSince(since: Date): Promise<KeyChanges> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const rows = await connection.query<{ keys: number | null; id: string | null }>(this.sql.changesSince, [
        this.dialect.encodeTimestamp(since),
      ]);
      const keys = Number(rows.find((row) => row.keys !== null)?.keys ?? 0);
      return { keys, revoked: rows.flatMap((row) => (row.id === null ? [] : [row.id])) };
    });
  }

  async recordUses(lastUses: ReadonlyMap<string, Date>): Promise<void> {
    if (lastUses.size === 0) return;
    const uses = JSON.stringify([...lastUses].map(([id, at]) => [id, this.dialect.encodeTimestamp(at)]));
    await this.sessions.inSession(WRITE, (connection) => connection.query(this.sql.recordUses, [uses]));
  }

  /**
   * The author of this name, or a new one with the first free slug of its name, inside the key's
   * transaction. The unique indexes decide between concurrent creates: a name another create
   * committed first is found again; a slug it took makes this one try the next free candidate.
   */
  private async authorNamed(connection: SqlConnection, name: string, at: Date): Promise<Author> {
    const base = slugFromTitle(name);
    let slug = base;
    for (let tries = 1; ; tries++) {
      const [found] = await connection.query<Author>(this.sql.findAuthorByName, [name]);
      if (found) return authorOf(found);
      const [created] = await connection.query<Author>(this.sql.insertAuthor, [
        createId(),
        name,
        slug,
        this.dialect.encodeTimestamp(at),
      ]);
      if (created) return authorOf(created);
      if (tries === MAX_SLUG_TRIES) throw new StorageUnavailableError();
      slug = await this.freeSlug(connection, base);
    }
  }

  /** The first candidate of `base` that no author has. */
  private async freeSlug(connection: SqlConnection, base: string): Promise<string> {
    for (let from = 1; ; from += CANDIDATES_PER_READ) {
      const candidates = slugCandidates(base, from, CANDIDATES_PER_READ);
      const rows = await connection.query<{ slug: string }>(this.sql.authorSlugsTakenAmong, [
        JSON.stringify(candidates),
      ]);
      const taken = new Set(rows.map((row) => row.slug));
      const free = candidates.find((candidate) => !taken.has(candidate));
      if (free !== undefined) return free;
    }
  }
}

const authorOf = (row: Author): Author => ({ id: row.id, name: row.name, slug: row.slug });

const storedOf = (key: NewKey): Omit<StoredKey, 'author'> => ({
  id: key.id,
  prefix: key.prefix,
  role: key.role,
  createdAt: key.createdAt,
  expiresAt: key.expiresAt,
  revokedAt: null,
  lastUsedAt: null,
});

const dateOf = (ms: number | null) => (ms === null ? null : new Date(Number(ms)));

function keyOf(row: KeyRow): StoredKey {
  return {
    id: row.id,
    prefix: row.prefix,
    role: row.role as Role,
    author: { id: row.authorId, name: row.authorName, slug: row.authorSlug },
    createdAt: new Date(Number(row.createdAt)),
    expiresAt: dateOf(row.expiresAt),
    revokedAt: dateOf(row.revokedAt),
    lastUsedAt: dateOf(row.lastUsedAt),
  };
}
