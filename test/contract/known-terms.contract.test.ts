import { DataSource } from 'typeorm';
import type { ArticleRepository } from '../../src/application';
import { UnknownReferenceError } from '../../src/domain';
import { TypeOrmArticleRepository } from '../../src/infrastructure/persistence/typeorm/article-repository/typeorm-article-repository';
import { dataSourceOptions } from '../../src/infrastructure/persistence/typeorm/data-source';
import { aNewArticle } from '../support/builders';
import { createSqlDatabase } from '../support/test-databases';

/**
 * A create naming only terms the process knows links them by id (ADR 0052). Terms are never
 * deleted through the service, but a database restored to an earlier point can lack one the
 * process knows: the create must still be answered as the database is, and write nothing wrong.
 */
describe.each(['postgres', 'sqlite'] as const)('terms known to the process, on %s', (kind) => {
  let dataSource: DataSource;
  let repository: ArticleRepository;
  let remove: () => Promise<void> | void;

  beforeAll(async () => {
    const created = await createSqlDatabase(kind);
    remove = created.remove;
    dataSource = new DataSource(dataSourceOptions(created.database));
    await dataSource.initialize();
    await dataSource.runMigrations();
    repository = new TypeOrmArticleRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await remove();
  });

  /** What a restore to a point before the term's creation leaves: no term, no link to it. */
  const loseTag = async (id: string) => {
    const p = kind === 'postgres' ? '$1' : '?';
    await dataSource.query(`DELETE FROM article_tags WHERE tag_id = ${p}`, [id]);
    await dataSource.query(`DELETE FROM tags WHERE id = ${p}`, [id]);
  };
  const articlesCount = async () => Number((await dataSource.query('SELECT COUNT(*) AS n FROM articles'))[0].n);

  it('answers an id the database lost as unknown, and writes nothing', async () => {
    const first = await repository.create(aNewArticle().withTags('lost-by-id').withCategories('kept').build());
    const [tag] = first.tags;
    const [category] = first.categories;
    if (!tag || !category) throw new Error('the first create linked no terms');
    await loseTag(tag.id);
    const before = await articlesCount();

    const again = repository.create(aNewArticle().withTags({ id: tag.id }).withCategories({ id: category.id }).build());

    await expect(again).rejects.toEqual(new UnknownReferenceError('tag', tag.id));
    expect(await articlesCount()).toBe(before);
  });

  it('creates a name the database lost again, and links the new term', async () => {
    const first = await repository.create(aNewArticle().withTags('lost-by-name').build());
    const lostId = first.tags[0]?.id as string;
    await loseTag(lostId);

    const again = await repository.create(aNewArticle().withTags('lost-by-name').build());

    const [tag] = again.tags;
    expect(tag?.name).toBe('lost-by-name');
    expect(tag?.id).not.toBe(lostId);
    const read = await repository.findById(again.id);
    expect(read?.tags).toEqual(again.tags);
  });

  it('links terms named and given by id once each, and answers them as stored', async () => {
    const first = await repository.create(aNewArticle().withTags('known-a', 'known-b').build());
    const [a, b] = first.tags;
    if (!a || !b) throw new Error('the first create linked no terms');

    const second = await repository.create(
      aNewArticle().withTags({ id: b.id }, 'known-a', { id: a.id }, 'known-b').build(),
    );

    const read = await repository.findById(second.id);
    expect(second.tags).toEqual([a, b]);
    expect(read?.tags).toEqual(second.tags);
  });
});
