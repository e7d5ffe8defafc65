import { CreateArticle, ListTags, ListVisibleArticles, UpdateArticle } from '../../../src/application';
import {
  type Article,
  ArticleChangedError,
  ArticleNotFoundError,
  OPEN_ACTOR,
  UnknownReferenceError,
  ValidationError,
} from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

const CREATED_AT = new Date('2026-01-01T00:00:00.000Z');

describe('UpdateArticle', () => {
  let repository: InMemoryArticleRepository;
  let clock: TestClock;
  let updateArticle: UpdateArticle;
  let existing: Article;

  beforeEach(async () => {
    repository = new InMemoryArticleRepository();
    clock = new TestClock(CREATED_AT);
    updateArticle = new UpdateArticle(repository, clock);
    existing = await new CreateArticle(repository, clock).execute(
      aCreateInput({
        title: 'Old',
        description: 'Old description',
        tag: [{ name: 'keep' }],
        category: [{ name: 'c' }],
      }),
      OPEN_ACTOR,
    );
    clock.advance(60_000);
  });

  it('applies the fields present, refreshes updatedAt and keeps createdAt', async () => {
    const updated = await updateArticle.execute({ id: existing.id, title: 'New', visible: false }, OPEN_ACTOR);

    expect(updated).toEqual({
      ...existing,
      title: 'New',
      publishedAt: null,
      createdAt: CREATED_AT,
      updatedAt: new Date('2026-01-01T00:01:00.000Z'),
      version: 2,
    });
    await expect(repository.findById(existing.id)).resolves.toEqual(updated);
  });

  it('with only the id, refreshes updatedAt and nothing else', async () => {
    const updated = await updateArticle.execute({ id: existing.id }, OPEN_ACTOR);

    expect(updated).toEqual({ ...existing, updatedAt: clock.now(), version: existing.version + 1 });
    expect(updated.updatedAt).not.toEqual(existing.updatedAt);
  });

  it('sets a null title', async () => {
    await expect(updateArticle.execute({ id: existing.id, title: null }, OPEN_ACTOR)).resolves.toMatchObject({
      title: null,
    });
  });

  it('replaces the whole set of tags when tag is present, and leaves categories alone', async () => {
    const updated = await updateArticle.execute({ id: existing.id, tag: [{ name: 'new' }] }, OPEN_ACTOR);

    expect(updated.tags.map((tag) => tag.name)).toEqual(['new']);
    expect(updated.categories).toEqual(existing.categories);
  });

  it('removes every link with an empty array', async () => {
    const updated = await updateArticle.execute({ id: existing.id, tag: [], category: [] }, OPEN_ACTOR);

    expect(updated.tags).toEqual([]);
    expect(updated.categories).toEqual([]);
  });

  it('rejects a missing id with ArticleNotFoundError and creates nothing', async () => {
    const attempt = updateArticle.execute({ id: 999, content: 'x', tag: [{ name: 'ghost' }] }, OPEN_ACTOR);

    await expect(attempt).rejects.toThrow(ArticleNotFoundError);
    await expect(attempt).rejects.toMatchObject({ articleId: 999, message: 'article 999 does not exist' });
    await expect(repository.findById(999)).resolves.toBeNull();
    await expect(repository.findById(existing.id)).resolves.toEqual(existing);
    await expect(new ListVisibleArticles(repository, clock).execute()).resolves.toEqual([existing]);
    await expect(new ListTags(repository).execute()).resolves.toEqual(existing.tags);
  });

  it('validates before the lookup: an invalid body on a missing id is a ValidationError', async () => {
    await expect(updateArticle.execute({ id: 999, content: '' }, OPEN_ACTOR)).rejects.toThrow(ValidationError);
  });

  it.each([
    ['a too-long title', { title: 'x'.repeat(201) }, 'title: must be at most 200 characters'],
    ['empty content', { content: '' }, 'content: must not be empty'],
    ['NUL in the description', { description: '\u0000' }, 'description: must not contain the NUL character (U+0000)'],
    ['a whitespace-only tag name', { tag: [{ name: '\t' }] }, 'tag[0].name: must not be empty or only whitespace'],
  ])('rejects %s and leaves the article unchanged', async (_, changes, message) => {
    const attempt = updateArticle.execute({ id: existing.id, ...changes }, OPEN_ACTOR);

    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toThrow(message);
    await expect(repository.findById(existing.id)).resolves.toEqual(existing);
  });

  it('rejects an unknown category id and applies none of the other changes', async () => {
    const attempt = updateArticle.execute({ id: existing.id, title: 'New', category: [{ id: 'nope' }] }, OPEN_ACTOR);

    await expect(attempt).rejects.toThrow(UnknownReferenceError);
    await expect(repository.findById(existing.id)).resolves.toEqual(existing);
  });

  describe('with expected versions (If-Match)', () => {
    it('applies when the article is at one of them, and the version moves on', async () => {
      const updated = await updateArticle.execute(
        { id: existing.id, title: 'New', expected: { versions: [7, 1] } },
        OPEN_ACTOR,
      );

      expect(existing.version).toBe(1);
      expect(updated).toMatchObject({ title: 'New', version: 2 });
    });

    it('rejects with ArticleChangedError and writes nothing when it is at none of them', async () => {
      await updateArticle.execute({ id: existing.id, title: 'Second' }, OPEN_ACTOR);
      const attempt = updateArticle.execute(
        { id: existing.id, title: 'Stale', expected: { versions: [1] } },
        OPEN_ACTOR,
      );

      await expect(attempt).rejects.toThrow(ArticleChangedError);
      await expect(attempt).rejects.toMatchObject({ articleId: existing.id });
      await expect(repository.findById(existing.id)).resolves.toMatchObject({ title: 'Second', version: 2 });
    });

    it('never applies with an empty list', async () => {
      await expect(updateArticle.execute({ id: existing.id, expected: { versions: [] } }, OPEN_ACTOR)).rejects.toThrow(
        ArticleChangedError,
      );
      await expect(repository.findById(existing.id)).resolves.toEqual(existing);
    });

    it('still says ArticleNotFoundError for a missing id', async () => {
      await expect(updateArticle.execute({ id: 999, expected: { versions: [1] } }, OPEN_ACTOR)).rejects.toThrow(
        ArticleNotFoundError,
      );
    });
  });
});
