import type { ArticleRepository, VisibleArticlesFilter } from '../../../src/application';
import { type Article, foldForSearch } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

const T = new Date('2026-09-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(T.getTime() + offsetMs);
const ids = (articles: readonly Article[]) => articles.map((article) => article.id);

/**
 * Publishing: publishedAt and featured as stored, lists decided by the moment a read starts
 * (a schedule needs no job), newest-first pages, and the version that moves when a scheduled
 * time arrives.
 */
export function publishingContract(open: OpenContractSubject): void {
  describe('publishing', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    /** Every article a stream lists at `moment`, chunks joined. */
    async function streamed(filter: VisibleArticlesFilter): Promise<Article[]> {
      const all: Article[] = [];
      for await (const chunk of repository.streamVisible(filter)) all.push(...chunk);
      return all;
    }

    it('stores publishedAt (null for a draft) and featured, and reads them back', async () => {
      const scheduled = await repository.create(aNewArticle().publishedOn(at(1000)).with({ featured: true }).build());
      const draft = await repository.create(aNewArticle().invisible().build());
      expect(scheduled).toMatchObject({ publishedAt: at(1000), featured: true });
      expect(draft).toMatchObject({ publishedAt: null, featured: false });
      await expect(repository.findById(scheduled.id)).resolves.toEqual(scheduled);
      await expect(repository.findById(draft.id)).resolves.toEqual(draft);
    });

    it('keeps every instant the API accepts to the millisecond, before 1970 too, in a get, a page and the whole list', async () => {
      // Years 1 and 9999 bound what the API accepts; 1969 is a negative epoch.
      const instants = ['0001-01-01T00:00:00.001Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'];
      const created = [];
      for (const instant of instants) {
        created.push(await repository.create(aNewArticle().at(new Date(instant)).build()));
      }
      const page = await repository.listVisible({ moment: READ_MOMENT, limit: 1_000 });
      const listed = await streamed({ moment: READ_MOMENT });
      const read = async (id: number) => ({
        get: await repository.findById(id),
        page: page.find((article) => article.id === id),
        list: listed.find((article) => article.id === id),
      });
      for (const [index, article] of created.entries()) {
        const at = new Date(instants[index] as string);
        const expected = expect.objectContaining({ publishedAt: at, createdAt: at, updatedAt: at });
        const visible = at <= READ_MOMENT;
        expect(await read(article.id)).toEqual({
          get: expected,
          page: visible ? expected : undefined,
          list: visible ? expected : undefined,
        });
      }
    });

    it('lists a scheduled article from its publishedAt on, exactly, in pages, streams, filters and searches', async () => {
      const now = await repository.create(
        aNewArticle().publishedOn(at(-1)).withTags('t').with({ content: 'needle' }).build(),
      );
      const later = await repository.create(
        aNewArticle().publishedOn(at(1000)).withTags('t').with({ content: 'needle', featured: true }).build(),
      );
      await repository.create(aNewArticle().invisible().withTags('t').with({ content: 'needle' }).build());

      for (const [moment, expected] of [
        [at(0), [now.id]],
        [at(999), [now.id]],
        [at(1000), [now.id, later.id]],
        [at(5000), [now.id, later.id]],
      ] as const) {
        const filters: VisibleArticlesFilter[] = [
          { moment },
          { moment, tagName: 't' },
          { moment, foldedQuery: foldForSearch('NEEDLE') },
          { moment, order: 'newest' },
        ];
        for (const filter of filters) {
          const wanted = filter.order === 'newest' ? [...expected].reverse() : expected;
          await expect(repository.listVisible({ ...filter, limit: 10 }).then(ids)).resolves.toEqual(wanted);
          await expect(streamed(filter).then(ids)).resolves.toEqual(wanted);
        }
        const featured = expected.includes(later.id as never) ? [later.id] : [];
        await expect(repository.listVisible({ moment, featured: true, limit: 10 }).then(ids)).resolves.toEqual(
          featured,
        );
      }
    });

    it('filters by featured, true or false, in pages and streams', async () => {
      const plain = await repository.create(aNewArticle().build());
      const featured = await repository.create(aNewArticle().with({ featured: true }).build());
      for (const [value, expected] of [
        [true, [featured.id]],
        [false, [plain.id]],
      ] as const) {
        const filter = { moment: READ_MOMENT, featured: value };
        await expect(repository.listVisible({ ...filter, limit: 10 }).then(ids)).resolves.toEqual(expected);
        await expect(streamed(filter).then(ids)).resolves.toEqual(expected);
      }
    });

    it('orders newest first by publishedAt then id, and pages from a position without gaps or repeats', async () => {
      const times = [at(-5000), at(-1000), at(-1000), at(-3000), at(-1000), at(-2000)];
      const created: Article[] = [];
      for (const time of times) created.push(await repository.create(aNewArticle().publishedOn(time).build()));
      await repository.create(aNewArticle().publishedOn(at(60_000)).build());
      const expected = [...created]
        .sort((a, b) => (b.publishedAt as Date).getTime() - (a.publishedAt as Date).getTime() || b.id - a.id)
        .map((article) => article.id);

      const paged: number[] = [];
      let before: { publishedAt: Date; id: number } | undefined;
      for (;;) {
        const page = await repository.listVisible({ moment: T, order: 'newest', before, limit: 2 });
        paged.push(...ids(page));
        const last = page[page.length - 1];
        if (page.length < 2 || !last) break;
        before = { publishedAt: last.publishedAt as Date, id: last.id };
      }
      expect(paged).toEqual(expected);
      await expect(streamed({ moment: T, order: 'newest' }).then(ids)).resolves.toEqual(expected);
      const third = created.find((article) => article.id === expected[2]) as Article;
      await expect(
        streamed({ moment: T, order: 'newest', before: { publishedAt: third.publishedAt as Date, id: third.id } }).then(
          ids,
        ),
      ).resolves.toEqual(expected.slice(3));
    });

    it('newest first with a tag, a category and a search', async () => {
      const old = await repository.create(
        aNewArticle().publishedOn(at(-2000)).withTags('t').withCategories('c').build(),
      );
      const recent = await repository.create(
        aNewArticle().publishedOn(at(-1000)).withTags('t').withCategories('c').with({ title: 'Found' }).build(),
      );
      await repository.create(aNewArticle().publishedOn(at(-500)).withTags('other').build());
      const filter = { moment: T, order: 'newest', tagName: 't', categoryName: 'c' } as const;
      await expect(repository.listVisible({ ...filter, limit: 10 }).then(ids)).resolves.toEqual([recent.id, old.id]);
      await expect(repository.listVisible({ ...filter, foldedQuery: 'found', limit: 10 }).then(ids)).resolves.toEqual([
        recent.id,
      ]);
      await expect(streamed(filter).then(ids)).resolves.toEqual([recent.id, old.id]);
    });

    it('changes the version when a scheduled time arrives, and only then, with no write', async () => {
      await repository.create(aNewArticle().publishedOn(at(-1)).build());
      await repository.create(aNewArticle().publishedOn(at(1000)).build());
      await repository.create(aNewArticle().invisible().build());
      const before = await repository.visibleVersion(at(0));
      await expect(repository.visibleVersion(at(999))).resolves.toBe(before);
      const arrived = await repository.visibleVersion(at(1000));
      expect(arrived).not.toBe(before);
      await expect(repository.visibleVersion(at(50_000))).resolves.toBe(arrived);
      // A page and a stream tell the version of the moment they read at.
      let toldByPage: string | undefined;
      await repository.listVisible({ moment: at(999), limit: 1 }, (version) => {
        toldByPage = version;
      });
      expect(toldByPage).toBe(before);
      let toldByStream: string | undefined;
      await streamed({ moment: at(1000) }).then(() => undefined);
      for await (const _ of repository.streamVisible({ moment: at(1000) }, (version) => {
        toldByStream = version;
      })) {
        // read to the end
      }
      expect(toldByStream).toBe(arrived);
    });

    it('an update sets, clears or publishes now, as asked, and leaves publishedAt alone otherwise', async () => {
      const draft = await repository.create(aNewArticle().invisible().build());
      const published = await repository.create(aNewArticle().publishedOn(at(-10_000)).build());
      const scheduled = await repository.create(aNewArticle().publishedOn(at(10_000)).build());

      const update = (article: Article, changes: ReturnType<typeof someChanges>) =>
        repository.update(article.id, changes.at(at(0)).build(), undefined, ANY_WRITER);
      await expect(update(draft, someChanges().publishingNow(at(0)))).resolves.toMatchObject({ publishedAt: at(0) });
      await expect(update(published, someChanges().publishingNow(at(0)))).resolves.toMatchObject({
        publishedAt: at(-10_000),
      });
      await expect(update(scheduled, someChanges().publishingNow(at(0)))).resolves.toMatchObject({
        publishedAt: at(0),
      });
      await expect(update(published, someChanges().publishingOn(at(20_000)))).resolves.toMatchObject({
        publishedAt: at(20_000),
      });
      await expect(update(published, someChanges().with({ title: 'only the title' }))).resolves.toMatchObject({
        publishedAt: at(20_000),
      });
      await expect(update(published, someChanges().publishingOn(null))).resolves.toMatchObject({ publishedAt: null });
      await expect(repository.findById(published.id)).resolves.toMatchObject({ publishedAt: null });
      await expect(update(draft, someChanges().with({ featured: true }))).resolves.toMatchObject({
        featured: true,
        publishedAt: at(0),
      });
    });
  });
}
