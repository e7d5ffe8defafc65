import { ARTICLE_INSERT_COLUMNS, ARTICLE_VALUES, articleInsertValues } from './article-insert-values';
import { TABLE } from './entities';
import type { SqlDialect } from './sql-dialect';
import { type SqlStatement, TERM_KINDS } from './sql-statement';

/**
 * The first half of the two-int4 advisory lock a keyed create holds on its key ("idky" in
 * ASCII), the second half a hash of the key. PostgreSQL keeps two-int4 locks apart from
 * single-bigint ones (the migrations' lock), and two keys that share a hash only make one
 * of two concurrent creates answer 409 (one chance in 2^32).
 */
const KEY_LOCK_CLASS = 0x69646b79;

const statement = (name: string, text: string): SqlStatement => ({ name: `idempotency_${name}`, text });

/** The parameters of a keyed create after the article's own (ARTICLE_VALUES of them, as insert_article). */
const KEY = ARTICLE_VALUES + 1;
const FINGERPRINT = ARTICLE_VALUES + 2;
const EXPIRED_UP_TO = ARTICLE_VALUES + 3;
const ANSWER = ARTICLE_VALUES + 4;
/** claim_and_insert_linked_article: the tags' and categories' ids; claim_key: the article's id. */
const LINKED_TAGS = ARTICLE_VALUES + 5;
const CLAIMED_ARTICLE = ARTICLE_VALUES + 5;
/** $5 of insert_article, the creation time: also when the key's record is stored. */
const CREATED_AT = 5;

/**
 * The statements of creates under an Idempotency-Key (table idempotency_keys). Values shared
 * by the create statements: the article's, as insert_article (articleInsertValues), then the
 * key, the fingerprint, the instant up to which a record is expired, and the answer (the
 * article's JSON without its id).
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
    WHERE k.stored_at <= ${p(EXPIRED_UP_TO)}`;

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
         SELECT fingerprint, article_id, answer FROM idempotency_keys
          WHERE key = $${KEY}::varchar AND stored_at > $${EXPIRED_UP_TO}::timestamptz
       ), free AS (
         SELECT pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}, hashtext($${KEY}::varchar)) AS locked
          WHERE NOT EXISTS (SELECT FROM stored)
       ), claim AS (
         ${upsertKey(`SELECT $${KEY}::varchar, $${FINGERPRINT}::varchar, nextval('articles_id_seq')::integer,
                  $${ANSWER}::text, $${CREATED_AT}::timestamptz FROM free WHERE locked`)}
         RETURNING article_id
       ), inserted AS (
         INSERT INTO articles (id, ${ARTICLE_INSERT_COLUMNS})
         SELECT article_id, ${articleInsertValues(d, true)} FROM claim RETURNING id
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
    /** claim_and_insert_article that also links the article to tags and categories (JSON arrays of ids) that exist. */
    claimAndInsertLinkedArticle: claimAndInsert(
      'claim_and_insert_linked_article',
      TERM_KINDS.map(
        (kind, index) =>
          `, ${kind}_links AS (INSERT INTO ${TABLE.link[kind]} (article_id, ${TABLE.linkTermColumn[kind]})
             SELECT inserted.id, value FROM inserted, json_array_elements_text($${LINKED_TAGS + index}::json) AS value)`,
      ).join(''),
    ),
    /**
     * SQLite, inside the create's write transaction (which already excludes other writers):
     * claims the key for the article whose id follows the shared values; answers the key when it
     * did, nothing when a live record holds it.
     */
    claimKey: statement(
      'claim_key',
      `${upsertKey(`SELECT ${p(KEY)}, ${p(FINGERPRINT)}, ${p(CLAIMED_ARTICLE)}, ${p(ANSWER)}, ${p(CREATED_AT)} WHERE true`)} RETURNING key`,
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
