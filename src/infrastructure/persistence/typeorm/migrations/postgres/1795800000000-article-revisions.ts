import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createArticleRevisionsTable } from '../article-revisions-table';

/** Revisions of articles (article-revisions-table.ts). */
export class ArticleRevisionsPostgres1795800000000 implements MigrationInterface {
  name = 'ArticleRevisionsPostgres1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createArticleRevisionsTable(queryRunner, 'timestamptz(3)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE article_revisions');
  }
}
