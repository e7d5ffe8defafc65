import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillSearchText } from '../backfill-search-text';

const FIELDS = ['search_title', 'search_description', 'search_content'];

/**
 * Search (`q`): each article keeps its title, description and content folded by the service
 * (JavaScript's toLowerCase, the one definition of case-insensitive), one column each so that
 * a match never spans two fields, and a GIN trigram index over the three serves LIKE '%…%'.
 * pg_trgm ships with PostgreSQL's contrib and is a trusted extension (PostgreSQL 13+): a role
 * with CREATE on the database may create it; otherwise a superuser creates it once beforehand.
 */
export class ArticleSearchPostgres1795600000000 implements MigrationInterface {
  name = 'ArticleSearchPostgres1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(
      `ALTER TABLE articles ADD COLUMN search_title text, ADD COLUMN search_description text,
                            ADD COLUMN search_content text`,
    );
    await backfillSearchText(
      queryRunner,
      (n) => `$${n}`,
      `UPDATE articles a SET search_title = v.value ->> 1, search_description = v.value ->> 2,
                             search_content = v.value ->> 3
         FROM json_array_elements($1::json) AS v(value) WHERE a.id = (v.value ->> 0)::integer`,
    );
    await queryRunner.query(
      'ALTER TABLE articles ALTER COLUMN search_description SET NOT NULL, ALTER COLUMN search_content SET NOT NULL',
    );
    await queryRunner.query(
      `CREATE INDEX articles_search_trgm_idx ON articles
         USING gin (${FIELDS.map((field) => `${field} gin_trgm_ops`).join(', ')})`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX articles_search_trgm_idx');
    await queryRunner.query(`ALTER TABLE articles ${FIELDS.map((field) => `DROP COLUMN ${field}`).join(', ')}`);
    // pg_trgm stays: other objects of the database may use it.
  }
}
