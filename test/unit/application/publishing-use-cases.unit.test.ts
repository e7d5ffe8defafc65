import {
  CreateArticle,
  GetArticleBySlug,
  ListArticleRevisions,
  PurgeExpiredRevisions,
  RestoreArticle,
  UpdateArticle,
} from '../../../src/application';
import { ArticleNotFoundError, OPEN_ACTOR, SlugNotFoundError, ValidationError } from '../../../src/domain';
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
    await expect(create.execute({ title: 'Привет мир', content: 'c' }, OPEN_ACTOR)).resolves.toMatchObject({
      slug: 'privet-mir',
    });
    await expect(create.execute({ content: 'c', slug: 'mine' }, OPEN_ACTOR)).resolves.toMatchObject({ slug: 'mine' });
    await expect(create.execute({ content: 'c', slug: '-bad' }, OPEN_ACTOR)).rejects.toBeInstanceOf(ValidationError);
    await expect(update.execute({ id: 1, slug: 'UPPER' }, OPEN_ACTOR)).rejects.toBeInstanceOf(ValidationError);
  });

  it('UpdateArticle with visible true publishes a draft at the clock time', async () => {
    const draft = await create.execute({ content: 'c', visible: false }, OPEN_ACTOR);
    clock.advance(60_000);
    await expect(update.execute({ id: draft.id, visible: true }, OPEN_ACTOR)).resolves.toMatchObject({
      publishedAt: new Date('2026-06-01T00:01:00.000Z'),
    });
  });

  it('GetArticleBySlug refuses a malformed slug and answers SlugNotFoundError for an unknown one', async () => {
    const bySlug = new GetArticleBySlug(repository, clock);
    await expect(bySlug.execute({ slug: 'Not A Slug' }, OPEN_ACTOR)).rejects.toBeInstanceOf(ValidationError);
    await expect(bySlug.execute({ slug: 'nobody' }, OPEN_ACTOR)).rejects.toEqual(new SlugNotFoundError('nobody'));
    const created = await create.execute({ title: 'Here', content: 'c' }, OPEN_ACTOR);
    await expect(bySlug.execute({ slug: 'here' }, OPEN_ACTOR)).resolves.toEqual({ found: 'current', article: created });
  });

  it('ListArticleRevisions answers ArticleNotFoundError for an id no article had; RestoreArticle stamps the clock', async () => {
    const revisions = new ListArticleRevisions(repository, clock);
    await expect(revisions.execute({ id: 7 }, OPEN_ACTOR)).rejects.toEqual(new ArticleNotFoundError(7));
    const created = await create.execute({ title: 'One', content: 'c' }, OPEN_ACTOR);
    clock.advance(1_000);
    await update.execute({ id: created.id, title: 'Two' }, OPEN_ACTOR);
    clock.advance(1_000);
    const restored = await new RestoreArticle(repository, clock).execute({ id: created.id, revision: 1 }, OPEN_ACTOR);
    expect(restored).toMatchObject({ title: 'One', updatedAt: new Date('2026-06-01T00:00:02.000Z'), version: 3 });
    await expect(revisions.execute({ id: created.id, limit: 1 }, OPEN_ACTOR)).resolves.toMatchObject([{ revision: 2 }]);
  });

  it('PurgeExpiredRevisions removes what the retention left behind, in batches', async () => {
    const created = await create.execute({ content: 'c' }, OPEN_ACTOR);
    for (let n = 0; n < 5; n++) {
      await update.execute({ id: created.id, title: `t${n}` }, OPEN_ACTOR);
      clock.advance(DAY_MS);
    }
    // Replaced on days 0..4; now is day 5; a 2-day retention removes those replaced up to day 3.
    const purge = new PurgeExpiredRevisions(repository, clock, {
      retentionMs: 2 * DAY_MS,
      batchSize: 2,
      maxBatches: 10,
    });
    await expect(purge.execute()).resolves.toBe(4);
    await expect(
      new ListArticleRevisions(repository, clock).execute({ id: created.id }, OPEN_ACTOR),
    ).resolves.toHaveLength(1);
  });
});
