import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillSearchText } from '../backfill-search-text';

const FIELDS = 'search_title, search_description, search_content';
const OLD = 'old.search_title, old.search_description, old.search_content';
const NEW = 'new.search_title, new.search_description, new.search_content';

/**
 * Search (`q`): each article keeps its title, description and content folded by the service
 * (JavaScript's toLowerCase, the one definition of case-insensitive), one column each so that
 * a match never spans two fields. An FTS5 table with the trigram tokenizer indexes those
 * columns (external content: it stores only the index), kept in step by triggers; it is
 * case-sensitive because the text is already folded.
 */
export class ArticleSearchSqlite1795600000000 implements MigrationInterface {
  name = 'ArticleSearchSqlite1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // SQLite cannot add NOT NULL without a default; the service always writes both.
    await queryRunner.query('ALTER TABLE articles ADD COLUMN search_title text');
    await queryRunner.query("ALTER TABLE articles ADD COLUMN search_description text NOT NULL DEFAULT ''");
    await queryRunner.query("ALTER TABLE articles ADD COLUMN search_content text NOT NULL DEFAULT ''");
    await backfillSearchText(
      queryRunner,
      () => '?',
      `UPDATE articles SET search_title = v.value ->> 1, search_description = v.value ->> 2,
                           search_content = v.value ->> 3
         FROM json_each(?) AS v WHERE articles.id = v.value ->> 0`,
    );
    await queryRunner.query(
      `CREATE VIRTUAL TABLE article_search USING fts5(${FIELDS},
         content = 'articles', content_rowid = 'id', tokenize = 'trigram case_sensitive 1')`,
    );
    await queryRunner.query("INSERT INTO article_search (article_search) VALUES ('rebuild')");
    await queryRunner.query(
      `CREATE TRIGGER article_search_insert AFTER INSERT ON articles BEGIN
         INSERT INTO article_search (rowid, ${FIELDS}) VALUES (new.id, ${NEW});
       END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER article_search_delete AFTER DELETE ON articles BEGIN
         INSERT INTO article_search (article_search, rowid, ${FIELDS}) VALUES ('delete', old.id, ${OLD});
       END`,
    );
    // Only when the text changes: most updates touch updated_at and version alone.
    await queryRunner.query(
      `CREATE TRIGGER article_search_update AFTER UPDATE OF ${FIELDS} ON articles
         WHEN old.search_title IS NOT new.search_title OR old.search_description IS NOT new.search_description
           OR old.search_content IS NOT new.search_content
       BEGIN
         INSERT INTO article_search (article_search, rowid, ${FIELDS}) VALUES ('delete', old.id, ${OLD});
         INSERT INTO article_search (rowid, ${FIELDS}) VALUES (new.id, ${NEW});
       END`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of ['insert', 'delete', 'update']) {
      await queryRunner.query(`DROP TRIGGER article_search_${trigger}`);
    }
    await queryRunner.query('DROP TABLE article_search');
    for (const field of FIELDS.split(', ')) await queryRunner.query(`ALTER TABLE articles DROP COLUMN ${field}`);
  }
}
