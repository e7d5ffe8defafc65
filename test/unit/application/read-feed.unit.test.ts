import { CreateArticle, DeleteArticle, ReadFeed, UpdateArticle } from '../../../src/application';
import { OPEN_ACTOR } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { TestClock } from '../../support/test-clock';

const MINUTE = 60_000;

/**
 * A feed's Last-Modified is the time of the last write (or arrival) that changed what the feed
 * holds, and no other: moved by the clock, on the in-memory store.
 */
describe('ReadFeed', () => {
  let clock: TestClock;
  let create: CreateArticle;
  let update: UpdateArticle;
  let remove: DeleteArticle;
  let feedOf: (size: number) => ReadFeed;

  beforeEach(() => {
    const repository = new InMemoryArticleRepository();
    clock = new TestClock('2026-06-01T00:00:00.000Z');
    create = new CreateArticle(repository, clock);
    update = new UpdateArticle(repository, clock);
    remove = new DeleteArticle(repository, clock);
    feedOf = (size) => new ReadFeed(repository, clock, size);
  });

  /** Moves the clock a minute on; answers the time writes made then carry. */
  const aMinuteLater = () => clock.advance(MINUTE);
  const titles = (feed: { articles: { title: string | null }[] }) => feed.articles.map((article) => article.title);

  it('holds the latest published articles, newest first; a feed that never held any was last modified at the epoch', async () => {
    await expect(feedOf(2).execute({})).resolves.toEqual({ articles: [], lastModified: new Date(0) });
    await create.execute({ title: 'draft', content: 'c', visible: false }, OPEN_ACTOR);
    await expect(feedOf(2).execute({})).resolves.toEqual({ articles: [], lastModified: new Date(0) });
    for (const title of ['one', 'two', 'three']) {
      aMinuteLater();
      await create.execute({ title, content: 'c' }, OPEN_ACTOR);
    }
    const feed = await feedOf(2).execute({});
    expect(titles(feed)).toEqual(['three', 'two']);
    expect(feed.lastModified).toEqual(new Date('2026-06-01T00:03:00.000Z'));
  });

  it('is modified when an entry is edited, and not by writes to drafts or to articles outside its filter', async () => {
    const first = await create.execute({ title: 'first', content: 'c', tag: [{ name: 'x' }] }, OPEN_ACTOR);
    const draft = await create.execute({ title: 'draft', content: 'c', visible: false }, OPEN_ACTOR);
    const other = await create.execute({ title: 'other', content: 'c', tag: [{ name: 'y' }] }, OPEN_ACTOR);
    const edited = aMinuteLater();
    await update.execute({ id: first.id, content: 'edited' }, OPEN_ACTOR);
    aMinuteLater();
    await update.execute({ id: draft.id, content: 'still a draft' }, OPEN_ACTOR);
    await remove.execute({ id: draft.id }, OPEN_ACTOR);
    await update.execute({ id: other.id, content: 'y only' }, OPEN_ACTOR);
    await expect(feedOf(20).execute({ tag: 'x' })).resolves.toMatchObject({ lastModified: edited });
  });

  it('is modified when an entry leaves it: deleted, unpublished, moved out of the filter', async () => {
    const kept = await create.execute({ title: 'kept', content: 'c', tag: [{ name: 'x' }] }, OPEN_ACTOR);
    const leaving = await create.execute({ title: 'leaving', content: 'c', tag: [{ name: 'x' }] }, OPEN_ACTOR);
    const feed = () => feedOf(20).execute({ tag: 'x' });

    const untagged = aMinuteLater();
    await update.execute({ id: leaving.id, tag: [{ name: 'y' }] }, OPEN_ACTOR);
    await expect(feed()).resolves.toMatchObject({ articles: [{ id: kept.id }], lastModified: untagged });

    aMinuteLater();
    await update.execute({ id: leaving.id, tag: [{ name: 'x' }] }, OPEN_ACTOR);
    const unpublished = aMinuteLater();
    await update.execute({ id: leaving.id, visible: false }, OPEN_ACTOR);
    await expect(feed()).resolves.toMatchObject({ lastModified: unpublished });

    aMinuteLater();
    await update.execute({ id: leaving.id, visible: true }, OPEN_ACTOR);
    const deleted = aMinuteLater();
    await remove.execute({ id: leaving.id }, OPEN_ACTOR);
    await expect(feed()).resolves.toMatchObject({ articles: [{ id: kept.id }], lastModified: deleted });
  });

  it('counts an entry pushed out by a newer one at the newer one’s time, and not the later delete of an article it no longer held', async () => {
    const oldest = await create.execute({ title: 'oldest', content: 'c' }, OPEN_ACTOR);
    aMinuteLater();
    await create.execute({ title: 'middle', content: 'c' }, OPEN_ACTOR);
    const newest = aMinuteLater();
    await create.execute({ title: 'newest', content: 'c' }, OPEN_ACTOR);
    aMinuteLater();
    await remove.execute({ id: oldest.id }, OPEN_ACTOR);
    await expect(feedOf(2).execute({})).resolves.toMatchObject({ lastModified: newest });
    // The feed of three held it: its delete changed that one.
    await expect(feedOf(3).execute({})).resolves.toMatchObject({ lastModified: clock.now() });
  });

  it('is modified when an entry is given a date that ranks it below the last entry', async () => {
    await create.execute({ title: 'earlier', content: 'c' }, OPEN_ACTOR);
    aMinuteLater();
    const later = await create.execute({ title: 'later', content: 'c' }, OPEN_ACTOR);
    const moved = aMinuteLater();
    await update.execute({ id: later.id, publishedAt: new Date('2026-05-01T00:00:00.000Z') }, OPEN_ACTOR);
    const feed = await feedOf(1).execute({});
    expect(titles(feed)).toEqual(['earlier']);
    expect(feed.lastModified).toEqual(moved);
  });

  it('counts a scheduled article from its arrival, at its publishedAt', async () => {
    await create.execute({ title: 'now', content: 'c' }, OPEN_ACTOR);
    const due = new Date('2026-06-01T01:00:00.000Z');
    aMinuteLater();
    await create.execute({ title: 'later', content: 'c', publishedAt: due }, OPEN_ACTOR);
    const before = await feedOf(20).execute({});
    expect(titles(before)).toEqual(['now']);
    expect(before.lastModified).toEqual(new Date('2026-06-01T00:00:00.000Z'));

    clock.set(new Date(due.getTime() + 5 * MINUTE));
    const after = await feedOf(20).execute({});
    expect(titles(after)).toEqual(['later', 'now']);
    expect(after.lastModified).toEqual(due);
  });

  it('filters by category, featured and author as the list does', async () => {
    await create.execute({ title: 'plain', content: 'c' }, OPEN_ACTOR);
    await create.execute({ title: 'starred', content: 'c', featured: true, category: [{ name: 'dev' }] }, OPEN_ACTOR);
    expect(titles(await feedOf(20).execute({ featured: true }))).toEqual(['starred']);
    expect(titles(await feedOf(20).execute({ category: 'dev' }))).toEqual(['starred']);
    expect(titles(await feedOf(20).execute({ featured: false }))).toEqual(['plain']);
    expect(titles(await feedOf(20).execute({ author: 'nobody' }))).toEqual([]);
  });
});
