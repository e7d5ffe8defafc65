import type { DataSourceOptions } from 'typeorm';
import { DataSource } from 'typeorm';
import type { ArticleRepository } from '../../src/application';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { dataSourceOptions } from '../../src/infrastructure/persistence/typeorm/data-source';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../support/builders';
import { EMPTY_DATABASE_SQL } from '../support/empty-database';
import { PostgresStatementCounter } from '../support/postgres-statement-counter';
import { createPostgresDatabase, createSqliteFile } from '../support/test-databases';

/** Statements that reached the database, counted there: SQLite's trace, PostgreSQL's wire protocol. */
interface StatementCount {
  count: number;
}

async function queriesFor(counter: StatementCount, work: () => Promise<unknown>): Promise<number> {
  const before = counter.count;
  await work();
  const sent = counter.count - before;
  // Guards the comparisons below: a counter that saw nothing would make them pass for nothing.
  expect(sent).toBeGreaterThan(0);
  return sent;
}

const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

type Opened = [DataSourceOptions, StatementCount, () => Promise<void>];

describe.each([
  [
    'SQLite',
    async (): Promise<Opened> => {
      const file = createSqliteFile();
      const counter = { count: 0 };
      // better-sqlite3 calls `verbose` with every statement SQLite runs.
      const options = { ...dataSourceOptions({ kind: 'sqlite', path: file.path }), verbose: () => counter.count++ };
      return [options as DataSourceOptions, counter, async () => file.remove()];
    },
  ],
  [
    'PostgreSQL',
    async (): Promise<Opened> => {
      const database = await createPostgresDatabase();
      const { hostname, port } = new URL(database.url);
      const counter = await PostgresStatementCounter.start({ host: hostname, port: Number(port) });
      const options = dataSourceOptions({ kind: 'postgres', url: counter.urlThrough(database.url) });
      return [
        options,
        counter,
        async () => {
          await counter.stop();
          await database.drop();
        },
      ];
    },
  ],
])('TypeORM on %s sends as many queries for a large request as for a small one', (_name, open) => {
  let dataSource: DataSource;
  let repository: ArticleRepository;
  let remove: () => Promise<void>;
  let counter: StatementCount;

  beforeAll(async () => {
    const [options, statementCount, cleanUp] = await open();
    remove = cleanUp;
    counter = statementCount;
    dataSource = new DataSource(options);
    await dataSource.initialize();
    await dataSource.runMigrations();
    repository = new TypeOrmArticleRepository(dataSource);
  });
  beforeEach(async () => {
    for (const statement of EMPTY_DATABASE_SQL[database()]) await dataSource.query(statement);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await remove();
  });
  const database = () => (dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite');
  const createWith = (tags: number, categories: number) =>
    repository.create(
      aNewArticle()
        .withTags(...names('t', tags))
        .withCategories(...names('c', categories))
        .build(),
    );

  it('create: 1 tag or 20 new tags and categories', async () => {
    const small = await queriesFor(counter, () => createWith(1, 1));
    const large = await queriesFor(counter, () => createWith(20, 20));
    expect(large).toBe(small);
  });

  it('create: naming 1 or 20 tags and categories that exist already', async () => {
    await createWith(20, 20);
    const small = await queriesFor(counter, () => createWith(1, 1));
    const large = await queriesFor(counter, () => createWith(20, 20));
    expect(large).toBe(small);
  });

  it('create: naming only terms that exist, by name and by id, one statement on PostgreSQL', async () => {
    const existing = await createWith(2, 1);
    const named = await queriesFor(counter, () => createWith(2, 1));
    const byId = await queriesFor(counter, () =>
      repository.create(
        aNewArticle()
          .withTags(...existing.tags.map(({ id }) => ({ id })))
          .withCategories('c0')
          .build(),
      ),
    );
    // PostgreSQL: one statement finds the terms and inserts the article and its links. SQLite:
    // BEGIN, find_terms, insert_article, the tag links, the category links, COMMIT (in-process).
    const expected = database() === 'postgres' ? 1 : 6;
    expect([named, byId]).toEqual([expected, expected]);
  });

  it('create: without references, one statement', async () => {
    await expect(queriesFor(counter, () => createWith(0, 0))).resolves.toBe(1);
  });

  it('create under a key: as many statements as a create, plus one with references; a replay', async () => {
    const claim = (key: string) => ({ key, fingerprint: 'f', expiredUpTo: new Date(0) });
    const keyed = (key: string, tags: number) =>
      repository.createWithKey(
        aNewArticle()
          .withTags(...names('k', tags))
          .build(),
        claim(key),
      );
    const plain = await queriesFor(counter, () => createWith(0, 0));
    const withNames = await queriesFor(counter, () => createWith(3, 0));
    const withKnownNames = await queriesFor(counter, () => createWith(3, 0));
    const postgres = database() === 'postgres';
    // PostgreSQL: the claim and the article are one statement; with new names, find_terms first,
    // then the answer is stored once the terms are created. SQLite: BEGIN, read the key, insert,
    // claim, COMMIT (in-process).
    await expect(queriesFor(counter, () => keyed('a', 0))).resolves.toBe(postgres ? plain : plain + 4);
    await expect(queriesFor(counter, () => keyed('b', 3))).resolves.toBe(withNames + (postgres ? 1 : 2));
    // With names that exist: on PostgreSQL find_terms, then one statement claims, inserts, links
    // and stores the whole answer (2, where a plain create is 1).
    await expect(queriesFor(counter, () => keyed('c', 3))).resolves.toBe(withKnownNames + (postgres ? 1 : 2));
    // A replay: the one statement on PostgreSQL (after find_terms, with references). SQLite:
    // BEGIN, read the key, COMMIT.
    await expect(queriesFor(counter, () => keyed('a', 0))).resolves.toBe(postgres ? 1 : 3);
    await expect(queriesFor(counter, () => keyed('b', 3))).resolves.toBe(postgres ? 2 : 3);
  });

  it('update: replacing 1 or 20 links', async () => {
    const article = await createWith(1, 1);
    const small = await queriesFor(counter, () =>
      repository.update(
        article.id,
        someChanges().replacingTags('x').replacingCategories('y').build(),
        undefined,
        ANY_WRITER,
      ),
    );
    const large = await queriesFor(counter, () =>
      repository.update(
        article.id,
        someChanges()
          .replacingTags(...names('u', 20))
          .replacingCategories(...names('v', 20))
          .build(),
        undefined,
        ANY_WRITER,
      ),
    );
    expect(large).toBe(small);
  });

  it('get one: with 1 or 20 links, in one statement', async () => {
    const few = await createWith(1, 1);
    const many = await createWith(20, 20);
    const small = await queriesFor(counter, () => repository.findById(few.id));
    const large = await queriesFor(counter, () => repository.findById(many.id));
    expect(large).toBe(small);
    // The article with its tags and categories, aggregated by the database.
    expect(small).toBe(1);
  });

  it('a page: 1 article or 40, each with links, in two statements', async () => {
    await createWith(3, 2);
    const small = await queriesFor(counter, () => repository.listVisible({ moment: READ_MOMENT, limit: 100 }));
    for (let n = 0; n < 39; n++) await createWith(3, 2);
    const large = await queriesFor(counter, () => repository.listVisible({ moment: READ_MOMENT, limit: 100 }));
    expect(large).toBe(small);
    // The articles, then every link of them.
    expect(small).toBe(2);
  });
});
