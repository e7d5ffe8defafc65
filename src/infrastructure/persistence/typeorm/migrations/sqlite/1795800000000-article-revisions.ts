import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createArticleRevisionsTable } from '../article-revisions-table';

/** Revisions of articles (article-revisions-table.ts). */
export class ArticleRevisionsSqlite1795800000000 implements MigrationInterface {
  name = 'ArticleRevisionsSqlite1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createArticleRevisionsTable(queryRunner, 'datetime');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE article_revisions');
  }
}
