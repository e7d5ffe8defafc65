import type { StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

type ArticleData = { id: number; title: string | null; content: string };

/** `q` on GET /article (api.md, "Search"), through the whole service. */
export function searchSuite(kind: StorageKind): void {
  describe('GET /article: search (q)', () => {
    const harness = useHarness(kind);
    const get = (url: string) => harness().http().get(url);
    const create = async (body: object): Promise<ArticleData> =>
      (await harness().http().post('/article/create').send(body)).body.data;
    const update = (body: object) => harness().http().post('/article/update').send(body);
    const ids = (articles: { id: number }[]) => articles.map((article) => article.id);
    const search = async (q: string, rest = '') =>
      ids((await get(`/article?q=${encodeURIComponent(q)}${rest}`)).body.data);

    it('finds q in the title, description or content, ignoring case as toLowerCase does', async () => {
      const title = await create({ title: 'TypeScript tips', content: 'x' });
      const description = await create({ description: 'Un café', content: 'y' });
      const content = await create({ content: '这是我的博客' });
      await create({ content: 'nothing here' });
      await create({ content: 'TYPESCRIPT but hidden', visible: false });

      for (const q of ['typescript', 'TYPESCRIPT', ' TypeScript ']) expect(await search(q)).toEqual([title.id]);
      expect(await search('CAFÉ')).toEqual([description.id]);
      expect(await search('cafe')).toEqual([]);
      expect(await search('博客')).toEqual([content.id]);
      const page = await get('/article?q=typescript&limit=5');
      expect(page.status).toBe(200);
      expect(page.body).toEqual({ statusCode: 10000, data: [title], message: 'Success' });
      expect(page.headers.link).toBeUndefined();
    });

    it('takes every character literally', async () => {
      const percent = await create({ content: '100% sure' });
      await create({ content: '1000 sure' });
      const underscore = await create({ content: 'snake_case "quoted" it\'s' });
      await create({ content: 'snakeXcase' });
      const backslash = await create({ content: 'C:\\temp a*b' });
      await create({ content: 'hello  world' });
      const spaced = await create({ content: 'hello world' });

      expect(await search('%')).toEqual([percent.id]);
      expect(await search('e_c')).toEqual([underscore.id]);
      expect(await search('"quoted" it\'s')).toEqual([underscore.id]);
      expect(await search('\\temp')).toEqual([backslash.id]);
      expect(await search('a*b')).toEqual([backslash.id]);
      expect(await search('hello world')).toEqual([spaced.id]);
      expect(await search('hello+world'.replace('+', ' '))).toEqual([spaced.id]);
    });

    it('tells U+FFFF from U+FFFD (issue 26): not in a page, not in the whole list', async () => {
      await create({ content: 'Qv\uFFFFw' });
      // The request as it was sent: EF BF BD is U+FFFD in UTF-8.
      const whole = await get('/article?q=qv%EF%BF%BDw');
      expect(whole.status).toBe(200);
      expect(whole.body.data).toEqual([]);
      expect(await search('qv\uFFFDw', '&limit=5')).toEqual([]);
      const replacement = await create({ content: 'QV\uFFFDW' });
      expect(await search('qv\uFFFDw')).toEqual([replacement.id]);
      expect(await search('qv\uFFFDw', '&limit=1')).toEqual([replacement.id]);
    });

    it('stops finding an article once an update removes the text', async () => {
      const article = await create({ title: 'Rust notes', content: 'body' });
      expect(await search('rust')).toEqual([article.id]);
      expect((await update({ id: article.id, title: 'Go notes' })).status).toBe(200);
      expect(await search('rust')).toEqual([]);
      expect(await search('go note')).toEqual([article.id]);
    });

    it('combines with tag, category and after; the Link carries q; without limit every match is streamed', async () => {
      const body = (content: string, tag: string, category: string) => ({
        content,
        tag: [{ name: tag }],
        category: [{ name: category }],
      });
      const matching: ArticleData[] = [];
      for (let n = 0; n < 5; n++) matching.push(await create(body(`Deep dive ${n}`, 'ts', 'dev')));
      const otherTag = await create(body('deep dive', 'go', 'dev'));
      await create(body('shallow', 'ts', 'dev'));

      expect(await search('deep dive', '&tag=ts&category=dev')).toEqual(ids(matching));
      expect(await search('deep dive', '&tag=go')).toEqual([otherTag.id]);
      expect(await search('deep dive', `&after=${matching[3]?.id}`)).toEqual([matching[4]?.id, otherTag.id]);
      const streamed = await get(`/article?q=${encodeURIComponent('DEEP dive')}`);
      expect(streamed.status).toBe(200);
      expect(ids(streamed.body.data)).toEqual([...ids(matching), otherTag.id]);

      const first = await get(`/article?limit=2&tag=ts&q=${encodeURIComponent(' Deep & dive? ')}`);
      expect(first.body.data).toEqual([]);
      const seen: number[] = [];
      let url: string | undefined = `/article?limit=2&tag=ts&q=${encodeURIComponent(' DEEP dive ')}`;
      const links: string[] = [];
      while (url) {
        const response = await get(url);
        expect(response.status).toBe(200);
        seen.push(...ids(response.body.data));
        const link = response.headers.link as string | undefined;
        if (link) links.push(link);
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
        expect(links.length).toBeLessThan(10);
      }
      expect(seen).toEqual(ids(matching));
      // q is trimmed, then percent-encoded in the link.
      expect(links[0]).toBe(`</article?limit=2&after=${matching[1]?.id}&tag=ts&q=DEEP%20dive>; rel="next"`);
    });

    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['too long', 'x'.repeat(101)],
      ['too long in code points', '😀'.repeat(101)],
      ['NUL', 'a\u0000b'],
    ])('q %s is a 400 naming q', async (_, value) => {
      const response = await get(`/article?q=${encodeURIComponent(value)}&limit=5`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(/^q: /));
    });

    it('q given twice is a 400 naming q; 100 code points are fine', async () => {
      const twice = await get('/article?q=a&q=b');
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual(failureBody('q: must be given at most once'));
      const longest = await get(`/article?q=${encodeURIComponent('😀'.repeat(100))}`);
      expect(longest.status).toBe(200);
      expect(longest.body.data).toEqual([]);
    });
  });
}
