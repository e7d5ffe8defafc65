import type { QueryRunner } from 'typeorm';

/**
 * Revisions: an article as it was just before an update, a delete or a restore replaced it
 * (`article`, the JSON of the whole article, terms included), numbered per article, written in
 * the same transaction as the write. No foreign key: a deleted article's revisions stay, so that
 * it can be restored. `version` is the version replaced (a restore of a deleted article takes
 * the next one); `replaced_at` is indexed for the retention's purge. A new, empty table: no lock
 * on the articles. `timestamp` is the dialect's column type with milliseconds.
 */
export async function createArticleRevisionsTable(queryRunner: QueryRunner, timestamp: string): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE article_revisions (
      article_id integer NOT NULL,
      revision integer NOT NULL,
      replaced_at ${timestamp} NOT NULL,
      version integer NOT NULL,
      article text NOT NULL,
      PRIMARY KEY (article_id, revision)
    )`);
  await queryRunner.query('CREATE INDEX article_revisions_replaced_at_idx ON article_revisions (replaced_at)');
}
