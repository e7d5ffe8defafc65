import { type SqlStatement, TERM_KINDS } from './article-statements';
import { TABLE } from './entities';
import type { SqlDialect } from './sql-dialect';

/**
 * The first half of the two-int4 advisory lock a keyed create holds on its key ("idky" in
 * ASCII), the second half a hash of the key. PostgreSQL keeps two-int4 locks apart from
 * single-bigint ones (the migrations' lock), and two keys that share a hash only make one
 * of two concurrent creates answer 409 (one chance in 2^32).
 */
const KEY_LOCK_CLASS = 0x69646b79;

const statement = (name: string, text: string): SqlStatement => ({ name: `idempotency_${name}`, text });

/**
 * The statements of creates under an Idempotency-Key (table idempotency_keys). Values shared
 * by the create statements: $1..$8 the article's title, description, content, visible,
 * created_at and the folded copies of title, description and content (as insert_article), $9
 * the key, $10 the fingerprint, $11 the instant up to which a record is expired, $12 the answer
 * (the article's JSON without its id).
 */
export function idempotencyStatements(d: SqlDialect) {
  const p = d.param;
  /** The claim, arbitrated by the primary key: inserts, or takes over an expired record; else changes nothing. */
  const upsertKey = (
    source: string,
  ) => `INSERT INTO idempotency_keys AS k (key, fingerprint, article_id, answer, stored_at)
    ${source}
    ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, article_id = excluded.article_id,
      answer = excluded.answer, stored_at = excluded.stored_at
    WHERE k.stored_at <= ${p(11)}`;

  /**
   * PostgreSQL, one statement: answers the key's live record (`stored`); or, when the key is
   * free, claims it and inserts the article under an id taken from the articles' sequence
   * (`created`); or, when another transaction holds the key's advisory lock, i.e. a create
   * under it has not committed, writes nothing (`in-progress`). The lock lasts until the
   * transaction ends. A record committed between this statement's snapshot and its claim
   * makes the claim change nothing: no row at all, and the caller reads the record again.
   * `more`: further data-changing steps on the inserted article.
   */
  const claimAndInsert = (name: string, more: string) =>
    statement(
      name,
      `WITH stored AS (
         SELECT fingerprint, article_id, answer FROM idempotency_keys WHERE key = $9::varchar AND stored_at > $11::timestamptz
       ), free AS (
         SELECT pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext($9::varchar)) AS locked
          WHERE NOT EXISTS (SELECT FROM stored)
       ), claim AS (
         ${upsertKey(`SELECT $9::varchar, $10::varchar, nextval('articles_id_seq')::integer, $12::text,
                  $5::timestamptz FROM free WHERE locked`)}
         RETURNING article_id
       ), inserted AS (
         INSERT INTO articles (id, title, description, content, visible, created_at, updated_at, version,
                               search_title, search_description, search_content)
         SELECT article_id, $1::varchar, $2::varchar, $3::text, $4::boolean, $5::timestamptz, $5::timestamptz, 1,
                $6::text, $7::text, $8::text
           FROM claim RETURNING id
       )${more}
       SELECT 'created' AS outcome, id AS "articleId", NULL AS fingerprint, NULL AS answer FROM inserted
       UNION ALL SELECT 'stored', article_id, fingerprint, answer FROM stored
       UNION ALL SELECT 'in-progress', NULL, NULL, NULL FROM free WHERE NOT locked`,
    );

  return {
    /** The record of key $1 when it was stored after $2 (live), else no row. */
    findLiveKey: statement(
      'find_live_key',
      `SELECT fingerprint, article_id AS "articleId", answer FROM idempotency_keys
        WHERE key = ${p(1)} AND stored_at > ${p(2)}`,
    ),
    /** The claim and the article, unlinked (see claimAndInsert). */
    claimAndInsertArticle: claimAndInsert('claim_and_insert_article', ''),
    /** claim_and_insert_article that also links the article to tags $13 and categories $14, which exist. */
    claimAndInsertLinkedArticle: claimAndInsert(
      'claim_and_insert_linked_article',
      TERM_KINDS.map(
        (kind, index) =>
          `, ${kind}_links AS (INSERT INTO ${TABLE.link[kind]} (article_id, ${TABLE.linkTermColumn[kind]})
             SELECT inserted.id, value FROM inserted, json_array_elements_text($${13 + index}::json) AS value)`,
      ).join(''),
    ),
    /**
     * SQLite, inside the create's write transaction (which already excludes other writers):
     * claims key $9 for article $13; answers the key when it did, nothing when a live record holds it.
     */
    claimKey: statement(
      'claim_key',
      `${upsertKey(`SELECT ${p(9)}, ${p(10)}, ${p(13)}, ${p(12)}, ${p(5)} WHERE true`)} RETURNING key`,
    ),
    /** The answer of key $1 becomes $2 (once the article's terms are resolved, in the same transaction). */
    storeAnswer: statement('store_answer', `UPDATE idempotency_keys SET answer = ${p(2)} WHERE key = ${p(1)}`),
    /**
     * Removes at most $2 records stored at or before $1, oldest first; one row per record removed.
     * PostgreSQL skips rows that another instance's purge is removing at the same moment.
     */
    deleteExpired: statement(
      'delete_expired',
      `DELETE FROM idempotency_keys WHERE key IN (
         SELECT key FROM idempotency_keys WHERE stored_at <= ${p(1)} ORDER BY stored_at LIMIT ${p(2)}
         ${d.skipsLockedRows ? 'FOR UPDATE SKIP LOCKED' : ''}
       ) RETURNING 1 AS removed`,
    ),
  };
}

export type IdempotencyStatements = ReturnType<typeof idempotencyStatements>;
