import { DataSource } from 'typeorm';
import { foldForSearch } from '../../src/domain';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { dataSourceOptions, openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { MIGRATIONS } from '../../src/infrastructure/persistence/typeorm/migrations';
import { READ_MOMENT } from '../support/builders';
import { createSqlDatabase } from '../support/test-databases';

/** More than one backfill batch (1,000 articles), so the batches' seams are crossed. */
const ARTICLES = 1_005;

/**
 * Articles written before the search migration are found by `q` after it: the migration folds
 * their text in JavaScript, non-ASCII included, and indexes it.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['SQLite', 'sqlite'],
] as const)('the search migration on %s', (_, kind) => {
  let database: SqlDatabaseConfig;
  let cleanUp: () => Promise<void> | void;

  beforeAll(async () => {
    ({ database, remove: cleanUp } = await createSqlDatabase(kind));
  });
  afterAll(() => cleanUp());

  it('backfills the folded copies of existing articles, in batches, non-ASCII included', async () => {
    const options = dataSourceOptions(database);
    const before = new DataSource({
      ...options,
      // The schema as it was just before the search migration: the migrations that came before it.
      migrations: MIGRATIONS[kind].slice(
        0,
        MIGRATIONS[kind].findIndex((migration) => migration.name.startsWith('ArticleSearch')),
      ),
    } as typeof options);
    await before.initialize();
    await before.runMigrations();
    const texts = Array.from({ length: ARTICLES }, (_, index) => {
      if (index === 0) return ['İSTANBUL notes', 'UN CAFÉ', 'x'];
      if (index === ARTICLES - 1) return [null, 'd', 'Needle in Η ΣΟΦΙΑ'];
      return [`hay ${index}`, 'd', 'hay'];
    });
    const param = (n: number) => (kind === 'postgres' ? `$${n}` : '?');
    const at = kind === 'postgres' ? '2026-01-01T00:00:00Z' : '2026-01-01 00:00:00.000';
    await before.query(
      `INSERT INTO articles (title, description, content, visible, created_at, updated_at) VALUES ${texts
        .map((_, i) => `(${param(3 * i + 1)}, ${param(3 * i + 2)}, ${param(3 * i + 3)}, true, '${at}', '${at}')`)
        .join(', ')}`,
      texts.flat(),
    );
    await before.destroy();

    const after = await openDataSource(database);
    try {
      const repository = new TypeOrmArticleRepository(after);
      const search = async (q: string) =>
        (await repository.listVisible({ moment: READ_MOMENT, limit: 100, foldedQuery: foldForSearch(q) })).map(
          (article) => article.id,
        );
      await expect(search('İstanbul')).resolves.toEqual([1]);
      await expect(search('café')).resolves.toEqual([1]);
      await expect(search('σοφια')).resolves.toEqual([ARTICLES]);
      await expect(search('NEEDLE')).resolves.toEqual([ARTICLES]);
      await expect(search('ne')).resolves.toEqual([ARTICLES]);
      await expect(search(`hay ${ARTICLES - 2}`)).resolves.toEqual([ARTICLES - 1]);
      await expect(search('hay').then((ids) => ids.length)).resolves.toBe(100);
    } finally {
      await after.destroy();
    }
  });
});
