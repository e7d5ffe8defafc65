import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillPublishing } from '../backfill-publishing';

/**
 * Publishing: `published_at` (null: a draft; later than now: scheduled; else published; the
 * text format of created_at), `featured`, and a unique `slug` per article, plus `article_slugs`,
 * the earlier slugs of an article (for redirects). `visible` stays, as on PostgreSQL.
 *
 * SQLite cannot add NOT NULL to an existing column without a default: slug stays nullable here,
 * and the service always writes it. A deploy on SQLite replaces every process of the file, so
 * nothing of the previous release writes meanwhile: the statements run plainly, in the
 * migration's transaction, with the same backfill as PostgreSQL (published_at = created_at where
 * visible, slugs from the domain's slugFromTitle and slugWithSuffix, in id order).
 */
export class PublishingSqlite1795700000000 implements MigrationInterface {
  name = 'PublishingSqlite1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE articles ADD COLUMN published_at datetime');
    await queryRunner.query('ALTER TABLE articles ADD COLUMN featured boolean NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE articles ADD COLUMN slug varchar(185)');
    await queryRunner.query('CREATE UNIQUE INDEX articles_slug_key ON articles (slug)');
    await backfillPublishing(queryRunner, {
      param: () => '?',
      batch: (work) => work(queryRunner),
      takenAmong: 'SELECT slug FROM articles WHERE slug IN (SELECT value FROM json_each(?))',
      update: `UPDATE articles SET slug = v.value ->> 1,
                 published_at = COALESCE(published_at, CASE WHEN visible THEN created_at END)
                 FROM json_each(?) AS v
                WHERE articles.id = v.value ->> 0 AND articles.slug IS NULL`,
    });
    await queryRunner.query('CREATE INDEX articles_published_at_idx ON articles (published_at, id)');
    await queryRunner.query(`
      CREATE TABLE article_slugs (
        slug varchar(185) PRIMARY KEY NOT NULL,
        article_id integer NOT NULL REFERENCES articles (id) ON DELETE CASCADE
      )`);
    await queryRunner.query('CREATE INDEX article_slugs_article_id_idx ON article_slugs (article_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE article_slugs');
    await queryRunner.query('DROP INDEX articles_published_at_idx');
    await queryRunner.query('DROP INDEX articles_slug_key');
    for (const column of ['slug', 'featured', 'published_at']) {
      await queryRunner.query(`ALTER TABLE articles DROP COLUMN ${column}`);
    }
  }
}
