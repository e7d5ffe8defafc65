import type { MigrationInterface, QueryRunner } from 'typeorm';

/** AUTOINCREMENT so that an id is never handed out twice; BINARY collation sorts by code point. */
export class InitialSchemaSqlite1763769600000 implements MigrationInterface {
  name = 'InitialSchemaSqlite1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE articles (
        id integer PRIMARY KEY AUTOINCREMENT,
        title varchar(200),
        description varchar(1000) NOT NULL,
        content text NOT NULL,
        visible boolean NOT NULL DEFAULT 1,
        created_at datetime NOT NULL,
        updated_at datetime NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX articles_visible_idx ON articles (id) WHERE visible`);
    for (const [terms, links, termColumn] of [
      ['tags', 'article_tags', 'tag_id'],
      ['categories', 'article_categories', 'category_id'],
    ]) {
      await queryRunner.query(`
        CREATE TABLE ${terms} (
          id varchar(32) PRIMARY KEY NOT NULL,
          name varchar(64) NOT NULL CONSTRAINT ${terms}_name_key UNIQUE,
          description text
        )`);
      await queryRunner.query(`
        CREATE TABLE ${links} (
          article_id integer NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
          ${termColumn} varchar(32) NOT NULL REFERENCES ${terms} (id),
          PRIMARY KEY (article_id, ${termColumn})
        )`);
      await queryRunner.query(`CREATE INDEX ${links}_${termColumn}_idx ON ${links} (${termColumn})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['article_categories', 'article_tags', 'categories', 'tags', 'articles']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
