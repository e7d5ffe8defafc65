import { DataSource } from 'typeorm';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { TypeOrmKeyRepository } from '../../src/infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { MIGRATIONS } from '../../src/infrastructure/persistence/typeorm/migrations';
import { aNewArticle, READ_MOMENT } from '../support/builders';
import { createSqlDatabase } from '../support/test-databases';
import { aNewKey } from './key-repository/new-key';

const ARTICLES = 3;

/**
 * The keys-and-authors migration on a database that has articles: they stay, each with no
 * author; the new tables and the author filter work at once. On PostgreSQL it runs online (the
 * articles were committed by an earlier run), so its foreign key ends validated.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['SQLite', 'sqlite'],
] as const)('the keys-and-authors migration on %s', (_, kind) => {
  let database: SqlDatabaseConfig;
  let cleanUp: () => Promise<void> | void;

  beforeAll(async () => {
    ({ database, remove: cleanUp } = await createSqlDatabase(kind));
  });
  afterAll(() => cleanUp());

  it('keeps the existing articles, with no author, and stores authors from then on', async () => {
    const options = dataSourceOptions(database);
    const before = new DataSource({
      ...options,
      migrations: MIGRATIONS[kind].slice(
        0,
        MIGRATIONS[kind].findIndex((migration) => migration.name.startsWith('KeysAndAuthors')),
      ),
    } as typeof options);
    await before.initialize();
    await before.runMigrations();
    const param = (n: number) => (kind === 'postgres' ? `$${n}` : '?');
    const at = kind === 'postgres' ? '2026-01-01T00:00:00Z' : '2026-01-01 00:00:00.000';
    for (let n = 1; n <= ARTICLES; n++) {
      await before.query(
        `INSERT INTO articles (title, description, content, visible, created_at, updated_at, published_at, slug,
                               search_title, search_description, search_content)
         VALUES (${param(1)}, 'd', 'c', true, '${at}', '${at}', '${at}', ${param(2)}, ${param(3)}, 'd', 'c')`,
        [`old ${n}`, `old-${n}`, `old ${n}`],
      );
    }
    await before.destroy();

    const after = await openDataSource(database);
    try {
      const articles = new TypeOrmArticleRepository(after);
      const keys = new TypeOrmKeyRepository(after);
      const old = await articles.listVisible({ moment: READ_MOMENT, limit: 10 });
      expect(old.map((article) => [article.title, article.author])).toEqual([
        ['old 1', null],
        ['old 2', null],
        ['old 3', null],
      ]);
      const { author } = await keys.create(aNewKey({ authorName: 'New Writer' }));
      const created = await articles.create(aNewArticle().with({ title: 'new' }).byAuthor(author).build());
      await expect(articles.findById(created.id)).resolves.toMatchObject({ author });
      const byAuthor = await articles.listVisible({ moment: READ_MOMENT, limit: 10, author: 'new-writer' });
      expect(byAuthor.map((article) => article.id)).toEqual([created.id]);
      if (kind === 'postgres') {
        const [fk] = await after.query(
          "SELECT convalidated FROM pg_constraint WHERE conname = 'articles_author_id_fkey'",
        );
        expect(fk).toEqual({ convalidated: true });
        const [index] = await after.query(
          "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'articles_author_id_idx'",
        );
        expect(index).toEqual({ valid: true });
      }
      if (kind === 'postgres') {
        // The foreign key added NOT VALID, then validated, holds: an author that does not exist is refused.
        await expect(
          articles.create(aNewArticle().byAuthor({ id: 'no-such-author', name: 'Nobody', slug: 'nobody' }).build()),
        ).rejects.toThrow();
      }
    } finally {
      await after.destroy();
    }
  });
});
