import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ARTICLES_AUTHOR_INDEX, createKeysAndAuthorsTables } from '../keys-and-authors-tables';
import { createIndex } from '../online-index';
import { type MigrationSession, withMigrationSession } from '../postgres-online';

const AUTHOR_FOREIGN_KEY = 'articles_author_id_fkey';

/**
 * Authors, API keys, and `articles.author_id` (null for every article written before: no
 * backfill; the previous release's inserts leave it null too). Online, on a live table
 * (postgres-online.ts; each step safe to run again after an interruption):
 *  1. the two new tables: empty, nothing waits on the articles;
 *  2. the column, under the short lock_timeout (ADD COLUMN without a default writes nothing);
 *  3. the (author_id, id) index, CONCURRENTLY;
 *  4. the foreign key NOT VALID (a moment's SHARE ROW EXCLUSIVE lock), then VALIDATE in a step
 *     of its own, which lets writes through while it scans.
 */
export class KeysAndAuthorsPostgres1795900000000 implements MigrationInterface {
  name = 'KeysAndAuthorsPostgres1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await withMigrationSession(queryRunner, this.name, async (session) => {
      await session.step('authors and api_keys', () =>
        session.transaction((runner) =>
          createKeysAndAuthorsTables(runner, { timestamp: 'timestamptz(3)', collate: 'COLLATE "C"' }),
        ),
      );
      await session.step('author column', () =>
        session.transaction((runner) => runner.query('ALTER TABLE articles ADD COLUMN IF NOT EXISTS author_id text'), {
          blocksWritesOn: 'articles',
        }),
      );
      await session.step('author index', () => createIndex(session, ARTICLES_AUTHOR_INDEX));
      await session.step('author foreign key', () => addForeignKey(session));
      await session.step('validate author foreign key', () =>
        session.transaction(
          (runner) => runner.query(`ALTER TABLE articles VALIDATE CONSTRAINT ${AUTHOR_FOREIGN_KEY}`),
          { lockTimeoutMs: 0, statementTimeoutMs: 0 },
        ),
      );
    });
  }

  /** In the caller's transaction: dropping a column, an index and two new tables is quick. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS ${ARTICLES_AUTHOR_INDEX.name}`);
    await queryRunner.query('ALTER TABLE articles DROP COLUMN IF EXISTS author_id');
    await queryRunner.query('DROP TABLE IF EXISTS api_keys, authors');
  }
}

async function addForeignKey(session: MigrationSession): Promise<void> {
  const [found] = await session.runner.query(
    `SELECT 1 AS found FROM pg_constraint WHERE conrelid = 'articles'::regclass AND conname = $1`,
    [AUTHOR_FOREIGN_KEY],
  );
  if (found) return;
  await session.transaction(
    (runner) =>
      runner.query(
        `ALTER TABLE articles ADD CONSTRAINT ${AUTHOR_FOREIGN_KEY}
           FOREIGN KEY (author_id) REFERENCES authors (id) NOT VALID`,
      ),
    { blocksWritesOn: 'articles' },
  );
}
