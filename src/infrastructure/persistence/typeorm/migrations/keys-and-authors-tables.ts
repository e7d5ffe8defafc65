import type { QueryRunner } from 'typeorm';

/**
 * Authors and API keys (ADR 0044), the same on both dialects but for the column types:
 * `timestamp` holds milliseconds, `collate` makes names and slugs compare byte for byte where
 * the default collation does not (PostgreSQL). Only a SHA-256 hash of a token is stored. New,
 * empty tables: nothing waits on the articles. The roles are written out here, as they were at
 * this version of the schema (a later role is a later migration).
 */
export async function createKeysAndAuthorsTables(
  queryRunner: QueryRunner,
  types: { timestamp: string; collate: string },
): Promise<void> {
  const { timestamp, collate } = types;
  await queryRunner.query(`
    CREATE TABLE IF NOT EXISTS authors (
      id text PRIMARY KEY NOT NULL,
      name text ${collate} NOT NULL CONSTRAINT authors_name_key UNIQUE,
      slug text ${collate} NOT NULL CONSTRAINT authors_slug_key UNIQUE,
      created_at ${timestamp} NOT NULL
    )`);
  await queryRunner.query(`
    CREATE TABLE IF NOT EXISTS api_keys (
      id text PRIMARY KEY NOT NULL,
      token_hash text NOT NULL CONSTRAINT api_keys_token_hash_key UNIQUE,
      prefix text NOT NULL,
      role text NOT NULL CONSTRAINT api_keys_role_check CHECK (role IN ('contributor', 'author', 'editor', 'admin')),
      author_id text NOT NULL REFERENCES authors (id),
      created_at ${timestamp} NOT NULL,
      expires_at ${timestamp},
      revoked_at ${timestamp},
      last_used_at ${timestamp}
    )`);
  // Every instance polls for the keys revoked since its last look (KeyRepository.changesSince).
  await queryRunner.query('CREATE INDEX IF NOT EXISTS api_keys_revoked_at_idx ON api_keys (revoked_at)');
}

/** The author filter of lists walks an author's articles in id order, and stops at a page's end. */
export const ARTICLES_AUTHOR_INDEX = { name: 'articles_author_id_idx', on: 'articles (author_id, id)' } as const;
