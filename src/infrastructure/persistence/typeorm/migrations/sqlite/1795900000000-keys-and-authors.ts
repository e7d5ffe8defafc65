import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ARTICLES_AUTHOR_INDEX, createKeysAndAuthorsTables } from '../keys-and-authors-tables';

/**
 * Authors, API keys, and `articles.author_id` (null for every article written before: no
 * backfill). A deploy on SQLite replaces every process of the file, so the statements run
 * plainly in the migration's transaction. ADD COLUMN with a REFERENCES clause and a null
 * default is allowed by SQLite, and writes nothing to the existing rows.
 */
export class KeysAndAuthorsSqlite1795900000000 implements MigrationInterface {
  name = 'KeysAndAuthorsSqlite1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createKeysAndAuthorsTables(queryRunner, { timestamp: 'datetime', collate: '' });
    await queryRunner.query('ALTER TABLE articles ADD COLUMN author_id text REFERENCES authors (id)');
    await queryRunner.query(`CREATE INDEX ${ARTICLES_AUTHOR_INDEX.name} ON ${ARTICLES_AUTHOR_INDEX.on}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ${ARTICLES_AUTHOR_INDEX.name}`);
    await queryRunner.query('ALTER TABLE articles DROP COLUMN author_id');
    await queryRunner.query('DROP TABLE api_keys');
    await queryRunner.query('DROP TABLE authors');
  }
}
