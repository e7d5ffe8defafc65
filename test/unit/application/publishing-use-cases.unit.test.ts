import {
  CreateArticle,
  GetArticleBySlug,
  ListArticleRevisions,
  PurgeExpiredRevisions,
  RestoreArticle,
  UpdateArticle,
} from '../../../src/application';
import { ArticleNotFoundError, SlugNotFoundError, ValidationError } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { TestClock } from '../../support/test-clock';

const DAY_MS = 86_400_000;

describe('the publishing use cases, on the in-memory store', () => {
  let repository: InMemoryArticleRepository;
  let clock: TestClock;
  let create: CreateArticle;
  let update: UpdateArticle;

  beforeEach(() => {
    repository = new InMemoryArticleRepository();
    clock = new TestClock('2026-06-01T00:00:00.000Z');
    create = new CreateArticle(repository, clock);
    update = new UpdateArticle(repository, clock);
  });

  it('CreateArticle makes the slug from the title, or checks the one given', async () => {
    await expect(create.execute({ title: 'Привет мир', content: 'c' })).resolves.toMatchObject({ slug: 'privet-mir' });
    await expect(create.execute({ content: 'c', slug: 'mine' })).resolves.toMatchObject({ slug: 'mine' });
    await expect(create.execute({ content: 'c', slug: '-bad' })).rejects.toBeInstanceOf(ValidationError);
    await expect(update.execute({ id: 1, slug: 'UPPER' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('UpdateArticle with visible true publishes a draft at the clock time', async () => {
    const draft = await create.execute({ content: 'c', visible: false });
    clock.advance(60_000);
    await expect(update.execute({ id: draft.id, visible: true })).resolves.toMatchObject({
      publishedAt: new Date('2026-06-01T00:01:00.000Z'),
    });
  });

  it('GetArticleBySlug refuses a malformed slug and answers SlugNotFoundError for an unknown one', async () => {
    const bySlug = new GetArticleBySlug(repository);
    await expect(bySlug.execute({ slug: 'Not A Slug' })).rejects.toBeInstanceOf(ValidationError);
    await expect(bySlug.execute({ slug: 'nobody' })).rejects.toEqual(new SlugNotFoundError('nobody'));
    const created = await create.execute({ title: 'Here', content: 'c' });
    await expect(bySlug.execute({ slug: 'here' })).resolves.toEqual({ found: 'current', article: created });
  });

  it('ListArticleRevisions answers ArticleNotFoundError for an id no article had; RestoreArticle stamps the clock', async () => {
    const revisions = new ListArticleRevisions(repository);
    await expect(revisions.execute({ id: 7 })).rejects.toEqual(new ArticleNotFoundError(7));
    const created = await create.execute({ title: 'One', content: 'c' });
    clock.advance(1_000);
    await update.execute({ id: created.id, title: 'Two' });
    clock.advance(1_000);
    const restored = await new RestoreArticle(repository, clock).execute({ id: created.id, revision: 1 });
    expect(restored).toMatchObject({ title: 'One', updatedAt: new Date('2026-06-01T00:00:02.000Z'), version: 3 });
    await expect(revisions.execute({ id: created.id, limit: 1 })).resolves.toMatchObject([{ revision: 2 }]);
  });

  it('PurgeExpiredRevisions removes what the retention left behind, in batches', async () => {
    const created = await create.execute({ content: 'c' });
    for (let n = 0; n < 5; n++) {
      await update.execute({ id: created.id, title: `t${n}` });
      clock.advance(DAY_MS);
    }
    // Replaced on days 0..4; now is day 5; a 2-day retention removes those replaced up to day 3.
    const purge = new PurgeExpiredRevisions(repository, clock, {
      retentionMs: 2 * DAY_MS,
      batchSize: 2,
      maxBatches: 10,
    });
    await expect(purge.execute()).resolves.toBe(4);
    await expect(new ListArticleRevisions(repository).execute({ id: created.id })).resolves.toHaveLength(1);
  });
});
