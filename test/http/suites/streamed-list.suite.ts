import { CreateArticle, STREAM_CHUNK_SIZE } from '../../../src/application';
import { OPEN_ACTOR } from '../../../src/domain';
import type { StorageKind } from '../../support/http-harness';
import { useHarness } from './harness-per-suite';

/** More than two batches, so that the streamed list is written from three reads at least. */
const MANY = STREAM_CHUNK_SIZE * 2 + 150;

export function streamedListSuite(kind: StorageKind): void {
  describe('GET /article without limit: the streamed whole list', () => {
    const harness = useHarness(kind);
    const get = (url: string) => harness().http().get(url);

    /** Seeds through the use case, not HTTP: hundreds of requests would only slow the suite. */
    async function seedMany(): Promise<void> {
      const createArticle = harness().container.get(CreateArticle);
      for (let n = 0; n < MANY; n++) {
        await createArticle.execute(
          {
            title: `a${n}`,
            content: `content ${n} "quoted" \\ \u2028 😀`,
            visible: n % 11 !== 3,
            tag: n % 3 === 0 ? [{ name: 'third' }] : [],
            category: n % 2 === 0 ? [{ name: 'even' }] : [],
          },
          OPEN_ACTOR,
        );
      }
    }

    /** The same list read page by page (each page answered whole): what the stream must equal. */
    async function pagedList(filters: string): Promise<unknown[]> {
      const all: unknown[] = [];
      let url: string | undefined = `/article?limit=100${filters}`;
      while (url) {
        const page = await get(url);
        all.push(...page.body.data);
        const link = page.headers.link as string | undefined;
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
      }
      return all;
    }

    it(`answers one valid JSON document equal to the paged list, over ${MANY} articles`, async () => {
      await seedMany();
      const response = await get('/article').buffer(true);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      // Written as it is read: no length known in advance.
      expect(response.headers['transfer-encoding']).toBe('chunked');
      expect(response.headers['content-length']).toBeUndefined();
      const parsed = JSON.parse(response.text);
      const expected = await pagedList('');
      expect(expected.length).toBeGreaterThan(STREAM_CHUNK_SIZE * 2);
      expect(parsed).toEqual({ statusCode: 10000, data: expected, message: 'Success' });
    });

    it('streams a filtered list, and one after an id, the same way', async () => {
      await seedMany();
      for (const filters of ['&tag=third', '&category=even', '&tag=third&category=even', '&after=600']) {
        const streamed = await get(`/article?${filters.slice(1)}`);
        expect(streamed.status).toBe(200);
        expect(streamed.body.data).toEqual(await pagedList(filters));
      }
      expect((await get('/article?tag=nobody')).body).toEqual({ statusCode: 10000, data: [], message: 'Success' });
    });

    it('GET /seed/create answers exactly what GET /article answers, streamed', async () => {
      await seedMany();
      const seeded = await get('/seed/create');
      expect(seeded.status).toBe(200);
      expect(seeded.body).toEqual((await get('/article')).body);
      expect(seeded.body.data.slice(-3).map((article: { title: string }) => article.title)).toEqual([
        'Article 1',
        'Article 2',
        'Article 3',
      ]);
    });
  });
}
