import type { SqlDialect } from '../sql-dialect';
import type { SqlStatement } from '../sql-statement';

const statement = (name: string, text: string): SqlStatement => ({ name: `key_repository_${name}`, text });

/** The statements of keys and their authors (tables api_keys and authors), for one dialect. */
export function keyStatements(d: SqlDialect) {
  const p = d.param;
  /** A key with its author, as KeyRow; instants in epoch ms. */
  const keyColumns = `SELECT k.id, k.prefix, k.role, ${d.epochMs('k.created_at')} AS "createdAt",
      ${d.epochMs('k.expires_at')} AS "expiresAt", ${d.epochMs('k.revoked_at')} AS "revokedAt",
      ${d.epochMs('k.last_used_at')} AS "lastUsedAt",
      au.id AS "authorId", au.name AS "authorName", au.slug AS "authorSlug"
    FROM api_keys k JOIN authors au ON au.id = k.author_id`;
  return {
    begin: statement('begin', d.begin),
    commit: statement('commit', 'COMMIT'),
    rollback: statement('rollback', 'ROLLBACK'),
    /** The author named $1. */
    findAuthorByName: statement('find_author_by_name', `SELECT id, name, slug FROM authors WHERE name = ${p(1)}`),
    /** Which of the slugs in JSON array $1 authors have. */
    authorSlugsTakenAmong: statement(
      'author_slugs_taken_among',
      `SELECT slug FROM authors WHERE slug IN ${d.jsonElements(1, 'text')}`,
    ),
    /**
     * Author $1 named $2 with slug $3, created at $4; no row when the name or the slug is taken
     * (by a transaction that committed first: ON CONFLICT waits for one still open).
     */
    insertAuthor: statement(
      'insert_author',
      `INSERT INTO authors (id, name, slug, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})
       ON CONFLICT DO NOTHING RETURNING id, name, slug`,
    ),
    /** Key $1: token hash $2, prefix $3, role $4, author $5, created $6, expiring $7 (null: never). */
    insertKey: statement(
      'insert_key',
      `INSERT INTO api_keys (id, token_hash, prefix, role, author_id, created_at, expires_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)})`,
    ),
    findKey: statement('find_key', `${keyColumns} WHERE k.id = ${p(1)}`),
    findKeyByTokenHash: statement('find_key_by_token_hash', `${keyColumns} WHERE k.token_hash = ${p(1)}`),
    /** Oldest first; keys created in one millisecond in id order, so that the order is stable. */
    listKeys: statement('list_keys', `${keyColumns} ORDER BY k.created_at, k.id`),
    /** Revokes key $1 at $2, unless it was revoked before (its first time stays); a row when the key exists. */
    revokeKey: statement(
      'revoke_key',
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${p(2)}) WHERE id = ${p(1)} RETURNING id`,
    ),
    /**
     * How many keys exist (the first row, `keys`), then the ids of those revoked at or after $1
     * (`id`): one statement for an instance's poll.
     */
    changesSince: statement(
      'changes_since',
      `SELECT CAST(count(*) AS integer) AS keys, NULL AS id FROM api_keys
       UNION ALL SELECT NULL, id FROM api_keys WHERE revoked_at >= ${p(1)}`,
    ),
    /**
     * The last uses in JSON array $1 of [key id, instant as encodeTimestamp writes it]: each
     * recorded unless the stored one is later (concurrent instances' records never move it back).
     */
    recordUses: statement(
      'record_uses',
      `UPDATE api_keys SET last_used_at = uses.at
         FROM (SELECT value ->> 0 AS id, ${d.timestampOfText('value ->> 1')} AS at FROM ${d.jsonRows(1)}) AS uses
        WHERE api_keys.id = uses.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < uses.at)`,
    ),
  };
}

export type KeyStatements = ReturnType<typeof keyStatements>;
