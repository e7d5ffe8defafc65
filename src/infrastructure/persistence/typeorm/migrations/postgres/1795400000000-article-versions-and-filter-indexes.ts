import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `version` counts an article's writes, for conditional updates (If-Match). The link tables'
 * term indexes gain the article id, so a page filtered by tag or category reads its articles
 * in id order straight from the index and stops at the page's end.
 */
export class ArticleVersionsAndFilterIndexesPostgres1795400000000 implements MigrationInterface {
  name = 'ArticleVersionsAndFilterIndexesPostgres1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE articles ADD COLUMN version integer NOT NULL DEFAULT 1');
    for (const [links, termColumn] of [
      ['article_tags', 'tag_id'],
      ['article_categories', 'category_id'],
    ]) {
      await queryRunner.query(
        `CREATE INDEX ${links}_${termColumn}_article_idx ON ${links} (${termColumn}, article_id)`,
      );
      await queryRunner.query(`DROP INDEX ${links}_${termColumn}_idx`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [links, termColumn] of [
      ['article_tags', 'tag_id'],
      ['article_categories', 'category_id'],
    ]) {
      await queryRunner.query(`CREATE INDEX ${links}_${termColumn}_idx ON ${links} (${termColumn})`);
      await queryRunner.query(`DROP INDEX ${links}_${termColumn}_article_idx`);
    }
    await queryRunner.query('ALTER TABLE articles DROP COLUMN version');
  }
}
