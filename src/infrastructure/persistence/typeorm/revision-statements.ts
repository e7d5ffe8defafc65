import type { SqlDialect } from './sql-dialect';
import type { StatementParts } from './sql-statement';

/**
 * Keeps parameter `article` (the article's JSON, at version `version`) as article `id`'s next
 * revision, replaced at `at`; numbered after its last one (the article's row lock, or SQLite's
 * write lock, orders them). The numbers are the statement's parameters: an update's statement
 * numbers them after its own.
 */
export function insertRevisionText(d: SqlDialect, id: number, at: number, version: number, article: number): string {
  const p = d.param;
  return `INSERT INTO article_revisions (article_id, revision, replaced_at, version, article)
       SELECT ${p(id)}, COALESCE(MAX(revision), 0) + 1, ${p(at)}, ${p(version)}, ${p(article)}
         FROM article_revisions WHERE article_id = ${p(id)}`;
}

/**
 * The statements of revisions (table article_revisions, ADR 0042) and of restores: the state a
 * write replaces, read locked and kept; an article's revisions listed and purged; an article
 * written back as a revision holds it.
 */
export function revisionStatements({ d, statement, withTermsOf }: StatementParts) {
  const p = d.param;
  return {
    /** Article $1 with its terms, its row locked until the transaction ends (PostgreSQL): the state a write replaces. */
    findArticleLocked: statement(
      'find_article_locked',
      `SELECT ${withTermsOf('a')} FROM articles a WHERE a.id = ${p(1)}${d.lockRow}`,
    ),
    /** Keeps $4 (the article's JSON, version $3) as article $1's next revision, replaced at $2 (insertRevisionText). */
    insertRevision: statement('insert_revision', insertRevisionText(d, 1, 2, 3, 4)),
    /** Revision $2 of article $1: the article as it was (JSON). */
    findRevision: statement(
      'find_revision',
      `SELECT article FROM article_revisions WHERE article_id = ${p(1)} AND revision = ${p(2)}`,
    ),
    /** The highest version article $1's revisions replaced: a deleted article's last version. */
    lastRevisedVersion: statement(
      'last_revised_version',
      `SELECT MAX(version) AS version, ${d.epochMs('MAX(replaced_at)')} AS "replacedAt"
         FROM article_revisions WHERE article_id = ${p(1)}`,
    ),
    /** Article $1's revisions numbered below $2, newest first, at most $3. */
    listRevisions: statement(
      'list_revisions',
      `SELECT revision, ${d.epochMs('replaced_at')} AS "replacedAt", article FROM article_revisions
        WHERE article_id = ${p(1)} AND revision < ${p(2)} ORDER BY revision DESC LIMIT ${p(3)}`,
    ),
    /**
     * Revisions of every article replaced after $1 and before the position ($2 replaced_at,
     * $3 article_id, $4 revision), newest first, at most $5: a walk back through the replaced states.
     */
    revisionsReplacedBefore: statement(
      'revisions_replaced_before',
      `SELECT article_id AS "articleId", revision, ${d.epochMs('replaced_at')} AS "replacedAt", article
         FROM article_revisions
        WHERE replaced_at > ${p(1)} AND (replaced_at, article_id, revision) < (${p(2)}, ${p(3)}, ${p(4)})
        ORDER BY replaced_at DESC, article_id DESC, revision DESC LIMIT ${p(5)}`,
    ),
    /** Whether article $1 exists (one row) or not (none). */
    articleExists: statement('article_exists', `SELECT 1 AS found FROM articles WHERE id = ${p(1)}`),
    /**
     * Removes at most $2 revisions replaced at or before $1, oldest first; one row per revision
     * removed. PostgreSQL skips rows another instance's purge is removing at the same moment.
     */
    deleteExpiredRevisions: statement(
      'delete_expired_revisions',
      `DELETE FROM article_revisions WHERE (article_id, revision) IN (
         SELECT article_id, revision FROM article_revisions WHERE replaced_at <= ${p(1)}
          ORDER BY replaced_at LIMIT ${p(2)} ${d.skipsLockedRows ? 'FOR UPDATE SKIP LOCKED' : ''}
       ) RETURNING 1 AS removed`,
    ),
    /**
     * Article $1 made what a revision holds: $2 title, $3 description, $4 content, $5 published_at,
     * $6 featured, $7 slug, the folded copies $9..$11; updated_at the later of $8 and the stored
     * one; a new version. `visible` as the previous release reads it (see updateArticleText in article-statements.ts).
     */
    restoreArticle: statement(
      'restore_article',
      `UPDATE articles SET title = ${p(2)}, description = ${p(3)}, content = ${p(4)},
         visible = CASE WHEN ${p(5)} IS NOT DISTINCT FROM published_at THEN visible
                        ELSE COALESCE(${p(5)} <= ${p(8)}, false) END,
         published_at = ${p(5)}, featured = ${p(6)}, slug = ${p(7)},
         updated_at = ${d.greatest}(${p(8)}, updated_at), version = version + 1,
         search_title = ${p(9)}, search_description = ${p(10)}, search_content = ${p(11)}
       WHERE id = ${p(1)}`,
    ),
    /**
     * A deleted article $1 inserted again as a revision holds it: the values of restoreArticle
     * ($8 its updated_at), created_at $12, version $13, `visible` $14, author_id $15 (an author
     * never changes: the revision's is the article's).
     */
    reinsertArticle: statement(
      'reinsert_article',
      `INSERT INTO articles (id, title, description, content, visible, published_at, featured, slug,
                             created_at, updated_at, version, search_title, search_description, search_content,
                             author_id)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(14)}, ${p(5)}, ${p(6)}, ${p(7)},
               ${p(12)}, ${p(8)}, ${p(13)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(15)})`,
    ),
  };
}
