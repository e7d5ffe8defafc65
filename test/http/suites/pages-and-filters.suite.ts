import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

type ArticleData = { id: number; title: string | null; tag: { name: string }[]; category: { name: string }[] };

export function pagesAndFiltersSuite(kind: StorageKind): void {
  describe('GET /article: pages and filters', () => {
    const harness = useHarness(kind);
    const get = (url: string) => harness().http().get(url);
    const create = async (body: object): Promise<ArticleData> =>
      (await harness().http().post('/article/create').send(body)).body.data;
    const remove = (id: number) => harness().http().post('/article/delete').send({ id });
    const createMany = async (count: number, body: object = {}) => {
      const created: ArticleData[] = [];
      for (let n = 0; n < count; n++) created.push(await create({ content: `c${n}`, title: `a${n}`, ...body }));
      return created;
    };
    const ids = (articles: { id: number }[]) => articles.map((article) => article.id);

    it('answers the first limit visible articles by id, with a Link to the next page when it is full', async () => {
      const [first, second] = await createMany(2);
      await create({ content: 'hidden', visible: false });
      const [third] = await createMany(1);

      const page = await get('/article?limit=2');
      expect(page.status).toBe(200);
      expect(page.body).toEqual({ statusCode: 10000, data: [first, second], message: 'Success' });
      expect(page.headers.link).toBe(`</article?limit=2&after=${second?.id}>; rel="next"`);

      const last = await get(`/article?limit=2&after=${second?.id}`);
      expect(last.body.data).toEqual([third]);
      expect(last.headers.link).toBeUndefined();
    });

    it('a full last page links to an empty page, which has no Link', async () => {
      const articles = await createMany(2);
      const full = await get('/article?limit=2');
      expect(ids(full.body.data)).toEqual(ids(articles));
      expect(full.headers.link).toBe(`</article?limit=2&after=${articles[1]?.id}>; rel="next"`);

      const empty = await get(`/article?limit=2&after=${articles[1]?.id}`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ statusCode: 10000, data: [], message: 'Success' });
      expect(empty.headers.link).toBeUndefined();
    });

    it('accepts limit 1 and 100', async () => {
      const articles = await createMany(3);
      expect(ids((await get('/article?limit=1')).body.data)).toEqual([articles[0]?.id]);
      const hundred = await get('/article?limit=100');
      expect(ids(hundred.body.data)).toEqual(ids(articles));
      expect(hundred.headers.link).toBeUndefined();
    });

    it('takes after without limit: every visible article with a greater id', async () => {
      const articles = await createMany(4);
      const response = await get(`/article?after=${articles[1]?.id}`);
      expect(response.body.data).toEqual(articles.slice(2));
      expect(response.headers.link).toBeUndefined();
    });

    it.each(['0', '101', '-1', '1.5', 'abc', '', '1e2', '01', ' 5'])(
      'limit=%s is a 400 naming limit',
      async (value) => {
        const response = await get(`/article?limit=${encodeURIComponent(value)}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(failureBody('limit: must be an integer from 1 to 100'));
      },
    );

    it.each(['0', 'abc', '2147483648', '-3', '1.0', ''])('after=%s is a 400 naming after', async (value) => {
      const response = await get(`/article?limit=5&after=${encodeURIComponent(value)}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        failureBody(`after: "${value}" is not an article id (a positive integer up to 2147483647)`),
      );
    });

    it.each([
      ['limit', '/article?limit=1&limit=2'],
      ['after', '/article?after=1&after=1'],
      ['tag', '/article?tag=a&tag=b'],
      ['category', '/article?limit=5&category=a&category=a'],
    ])('a repeated %s is a 400 naming it', async (name, url) => {
      const response = await get(url);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(`${name}: must be given at most once`));
    });

    it.each([
      ['tag', ''],
      ['tag', '   '],
      ['category', 'x'.repeat(65)],
      ['tag', 'a\u0000b'],
    ])('%s=%j is a 400 naming the parameter', async (name, value) => {
      const response = await get(`/article?${name}=${encodeURIComponent(value)}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(new RegExp(`^${name}: `)));
    });

    it.each([
      ['q', 'q=%ZZ'],
      ['q', 'q=%C3%28'],
      ['q', 'limit=5&q=abc%'],
      ['tag', 'tag=%E0%A4%A'],
      ['category', 'category=%C0%AF'],
      ['limit', 'limit=%ZZ'],
      ['after', 'after=1%2'],
      ['page', 'page=%FF'],
    ])('%s in malformed percent-encoding (%s) is a 400 naming it', async (name, query) => {
      const response = await get(`/article?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(`${name}: is not valid percent-encoded UTF-8`));
    });

    it('a parameter name in malformed percent-encoding is a 400 naming the query; + and %XX still decode', async () => {
      const response = await get('/article?%ZZ=1');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('query: a parameter name is not valid percent-encoded UTF-8'));
      const [article] = await createMany(1, { title: 'caf\u00e9 au lait', tag: [{ name: 'a b' }] });
      const found = await get('/article?q=caf%C3%A9+au&tag=a+b&%6C%69%6D%69%74=5');
      expect(found.status).toBe(200);
      expect(ids(found.body.data)).toEqual([article?.id]);
    });

    it('ignores every other parameter, repeated or not', async () => {
      const articles = await createMany(2);
      const response = await get('/article?page=2&page=3&includeInvisible=true&limit=1&sort=desc');
      expect(ids(response.body.data)).toEqual([articles[0]?.id]);
    });

    it('filters by tag, by category, and by both; an unknown name matches nothing', async () => {
      const tsDev = await create({
        content: '1',
        tag: [{ name: 'ts' }, { name: 'node' }],
        category: [{ name: 'dev' }],
      });
      const tsNews = await create({ content: '2', tag: [{ name: 'ts' }], category: [{ name: 'news' }] });
      const jsDev = await create({ content: '3', tag: [{ name: 'js' }], category: [{ name: 'dev' }] });
      await create({ content: 'hidden', visible: false, tag: [{ name: 'ts' }], category: [{ name: 'dev' }] });

      expect((await get('/article?tag=ts')).body.data).toEqual([tsDev, tsNews]);
      expect((await get('/article?category=dev')).body.data).toEqual([tsDev, jsDev]);
      expect((await get('/article?tag=ts&category=dev')).body.data).toEqual([tsDev]);
      expect((await get('/article?tag=js&category=news')).body.data).toEqual([]);
      expect((await get('/article?tag=nobody')).body).toEqual({ statusCode: 10000, data: [], message: 'Success' });
      expect((await get('/article?category=nobody&limit=3')).body.data).toEqual([]);
      // Names are exact (case-sensitive) once trimmed.
      expect((await get('/article?tag=TS')).body.data).toEqual([]);
      expect((await get('/article?tag=%20ts%09')).body.data).toEqual([tsDev, tsNews]);
    });

    it('pages through a filter, and the Link keeps the filters, percent-encoded', async () => {
      const tag = 'C++ & co';
      const category = 'dév/ops?#';
      const matching = await createMany(3, { tag: [{ name: tag }], category: [{ name: category }] });
      await create({ content: 'tag only', tag: [{ name: tag }] });
      const query = `tag=${encodeURIComponent(` ${tag} `)}&category=${encodeURIComponent(category)}`;

      const first = await get(`/article?limit=2&${query}`);
      expect(first.body.data).toEqual(matching.slice(0, 2));
      expect(first.headers.link).toBe(
        `</article?limit=2&after=${matching[1]?.id}&tag=C%2B%2B%20%26%20co&category=d%C3%A9v%2Fops%3F%23>; rel="next"`,
      );
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link as string)?.[1] as string;
      const second = await get(next);
      expect(second.body.data).toEqual(matching.slice(2));
      expect(second.headers.link).toBeUndefined();
    });

    it('following next visits each matching article once, in id order, while others are created and deleted', async () => {
      const initial = await createMany(12, { tag: [{ name: 'walk' }] });
      await createMany(3, { tag: [{ name: 'other' }] });
      const deletedBeforeSeen = [initial[7], initial[10]].map((article) => article?.id);
      const seen: number[] = [];
      const createdMeanwhile: number[] = [];
      let url: string | undefined = '/article?limit=3&tag=walk';
      let pages = 0;
      while (url) {
        const response = await get(url);
        expect(response.status).toBe(200);
        seen.push(...ids(response.body.data));
        const link = response.headers.link as string | undefined;
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
        pages++;
        // Between pages: delete one already seen and one not seen yet, create one more that matches.
        if (pages === 1) {
          expect((await remove(initial[0]?.id as number)).status).toBe(200);
          for (const id of deletedBeforeSeen) expect((await remove(id as number)).status).toBe(200);
        }
        if (pages <= 3) createdMeanwhile.push((await create({ content: 'late', tag: [{ name: 'walk' }] })).id);
        expect(pages).toBeLessThan(20);
      }

      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(seen.length);
      const throughout = ids(initial).filter((id) => id !== initial[0]?.id && !deletedBeforeSeen.includes(id));
      expect(seen).toEqual(expect.arrayContaining(throughout));
      for (const id of deletedBeforeSeen) expect(seen).not.toContain(id);
      expect(seen.every((id) => ids(initial).includes(id) || createdMeanwhile.includes(id))).toBe(true);
    });
  });
}
