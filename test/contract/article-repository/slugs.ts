import type { ArticleRepository } from '../../../src/application';
import { type Article, SlugTakenError, slugWithSuffix } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/**
 * Slugs: the one made from the title or given, unique among current articles under concurrent
 * creates, found by slug, and earlier slugs that keep leading to their article.
 */
export function slugsContract(open: OpenContractSubject): void {
  describe('slugs', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    const titled = (title: string) => repository.create(aNewArticle().with({ title }).build());
    const count = async () => (await repository.listVisible({ moment: READ_MOMENT, limit: 100 })).length;

    it('stores the slug made from the title, and the smallest free suffix when another article has it', async () => {
      const first = await titled('Hello World');
      const second = await titled('Hello World');
      const third = await titled('hello   world!');
      expect([first.slug, second.slug, third.slug]).toEqual(['hello-world', 'hello-world-2', 'hello-world-3']);
      await repository.delete(second.id, new Date(), undefined, ANY_WRITER);
      await expect(titled('Hello, world')).resolves.toMatchObject({ slug: 'hello-world-2' });
      // A suffix cuts a long base so that the whole stays within 185 characters.
      const long = 'w'.repeat(100).split('').join(' ');
      const a = await titled(long);
      const b = await titled(long);
      expect(b.slug).toBe(slugWithSuffix(a.slug, 2));
      expect(b.slug.length).toBeLessThanOrEqual(185);
      // Cut shorter, the suffixed forms do not start with the whole base: each is found all the same.
      const wordless = 'x'.repeat(200);
      const found = [];
      for (let n = 1; n <= 4; n++) found.push((await titled(wordless)).slug);
      expect(found).toEqual([1, 2, 3, 4].map((n) => (n === 1 ? 'x'.repeat(185) : slugWithSuffix('x'.repeat(185), n))));
    });

    it('gives concurrent creates of one title one slug each', async () => {
      const created = await Promise.all(Array.from({ length: 12 }, () => titled('Same title')));
      const slugs = created.map((article) => article.slug);
      expect(new Set(slugs).size).toBe(12);
      expect([...slugs].sort()).toEqual(
        ['same-title', ...Array.from({ length: 11 }, (_, i) => `same-title-${i + 2}`)].sort(),
      );
      for (const article of created) {
        await expect(repository.findBySlug(article.slug)).resolves.toEqual({ found: 'current', article });
      }
    }, 60_000);

    it('gives keyed creates of one title one slug each too', async () => {
      const claim = (key: string) => ({ key, fingerprint: 'f', expiredUpTo: new Date(0) });
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          repository.createWithKey(aNewArticle().with({ title: 'Keyed' }).withTags('k').build(), claim(`key-${i}`)),
        ),
      );
      const slugs = outcomes.map((outcome) => (outcome.outcome === 'created' ? outcome.article.slug : null));
      expect(new Set(slugs).size).toBe(6);
      expect(slugs).toContain('keyed');
      // A replay answers the slug it was created with.
      const replay = await repository.createWithKey(aNewArticle().with({ title: 'Keyed' }).build(), claim('key-0'));
      expect(replay).toMatchObject({ outcome: 'stored', article: { slug: slugs[0] } });
    }, 60_000);

    it('stores a given slug, and refuses one another current article has, writing nothing', async () => {
      await expect(repository.create(aNewArticle().withSlug('my-post').build())).resolves.toMatchObject({
        slug: 'my-post',
      });
      await expect(repository.create(aNewArticle().withSlug('my-post').withTags('new-tag').build())).rejects.toEqual(
        new SlugTakenError('my-post'),
      );
      expect(await count()).toBe(1);
      expect(await repository.listTerms('tag')).toEqual([]);
      await expect(
        repository.createWithKey(aNewArticle().withSlug('my-post').build(), {
          key: 'k',
          fingerprint: 'f',
          expiredUpTo: new Date(0),
        }),
      ).rejects.toBeInstanceOf(SlugTakenError);
      expect(await count()).toBe(1);
    });

    it('finds an article by slug, whatever its status; null for a slug nobody has or had', async () => {
      const draft = await repository.create(aNewArticle().invisible().withSlug('draft-post').build());
      await expect(repository.findBySlug('draft-post')).resolves.toEqual({ found: 'current', article: draft });
      await expect(repository.findBySlug('nobody')).resolves.toBeNull();
    });

    it('keeps the slug when the title changes', async () => {
      const article = await titled('First title');
      await expect(
        repository.update(article.id, someChanges().with({ title: 'Second' }).build(), undefined, ANY_WRITER),
      ).resolves.toMatchObject({
        slug: 'first-title',
      });
    });

    it('a new slug keeps the old one leading to the article, through several renames', async () => {
      const article = await titled('Original');
      const renamed = await repository.update(
        article.id,
        someChanges().withSlug('renamed').build(),
        undefined,
        ANY_WRITER,
      );
      expect(renamed).toMatchObject({ slug: 'renamed', version: 2 });
      await repository.update(article.id, someChanges().withSlug('final').build(), undefined, ANY_WRITER);
      for (const old of ['original', 'renamed']) {
        await expect(repository.findBySlug(old)).resolves.toEqual({ found: 'earlier', id: article.id, slug: 'final' });
      }
      await expect(repository.findBySlug('final')).resolves.toMatchObject({ found: 'current' });
      // Back to an earlier slug: current again, and the one it left leads to it.
      await repository.update(article.id, someChanges().withSlug('original').build(), undefined, ANY_WRITER);
      await expect(repository.findBySlug('original')).resolves.toMatchObject({ found: 'current' });
      await expect(repository.findBySlug('final')).resolves.toEqual({
        found: 'earlier',
        id: article.id,
        slug: 'original',
      });
    });

    it('refuses a slug another current article has, writing nothing; an earlier slug of another is free', async () => {
      const one = await titled('One');
      const two = await titled('Two');
      await expect(
        repository.update(two.id, someChanges().withSlug('one').with({ title: 'x' }).build(), undefined, ANY_WRITER),
      ).rejects.toEqual(new SlugTakenError('one'));
      await expect(repository.findById(two.id)).resolves.toEqual(two);
      await expect(
        repository.update(two.id, someChanges().withSlug('one').replacingTags('never').build(), undefined, ANY_WRITER),
      ).rejects.toBeInstanceOf(SlugTakenError);
      expect(await repository.listTerms('tag')).toEqual([]);

      // One moves on; Two takes its earlier slug, which then leads to Two only.
      await repository.update(one.id, someChanges().withSlug('one-moved').build(), undefined, ANY_WRITER);
      await repository.update(two.id, someChanges().withSlug('one').build(), undefined, ANY_WRITER);
      await expect(repository.findBySlug('one')).resolves.toMatchObject({ found: 'current', article: { id: two.id } });
      await expect(repository.findBySlug('two')).resolves.toEqual({ found: 'earlier', id: two.id, slug: 'one' });
    });

    it("frees a deleted article's slug and earlier slugs; an earlier slug a new article took ends its redirect", async () => {
      const gone = await titled('Gone');
      await repository.update(gone.id, someChanges().withSlug('gone-renamed').build(), undefined, ANY_WRITER);
      await repository.delete(gone.id, new Date(), undefined, ANY_WRITER);
      await expect(repository.findBySlug('gone')).resolves.toBeNull();
      await expect(repository.findBySlug('gone-renamed')).resolves.toBeNull();
      await expect(titled('Gone')).resolves.toMatchObject({ slug: 'gone' });

      const moved = await titled('Moved');
      await repository.update(moved.id, someChanges().withSlug('moved-on').build(), undefined, ANY_WRITER);
      const taker: Article = await repository.create(aNewArticle().withSlug('moved').build());
      await expect(repository.findBySlug('moved')).resolves.toEqual({ found: 'current', article: taker });
      await repository.delete(taker.id, new Date(), undefined, ANY_WRITER);
      // The slug is free again, and does not lead back to the article that had it before.
      await expect(repository.findBySlug('moved')).resolves.toBeNull();
    });
  });
}
