import { type ListeningHarness, openListeningHarness } from '../support/listening-harness';
import type { ArticleAnswer } from '../support/load/article-state';
import { type Exchange, jsonOf } from '../support/raw-http';

interface Answer<T> {
  status: number | null;
  data: T;
}

function answerOf<T>(exchange: Exchange): Answer<T> {
  const body = jsonOf(exchange) as { data: T } | undefined;
  return { status: exchange.kind === 'answered' ? exchange.status : null, data: body?.data as T };
}

const names = (terms: { name: string }[]) => terms.map((term) => term.name);

/** Shuffles a copy, so that parallel requests name the same terms in different orders. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = (seed * 7 + i * 13) % (i + 1);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Parallel requests on one storage through real sockets: races the API must win. */
describe.each(['memory', 'sqlite', 'postgres'] as const)('concurrency on %s', (kind) => {
  let api: ListeningHarness;
  beforeAll(async () => {
    api = await openListeningHarness(kind, { maxSockets: 32 });
  });
  beforeEach(async () => {
    await api.harness.reset();
  });
  afterAll(async () => {
    await api.close();
  });

  const post = <T>(path: string, body: object) => api.http.postJson(path, body).then((e) => answerOf<T>(e));
  const get = <T>(path: string) => api.http.get(path).then((e) => answerOf<T>(e));

  it('parallel updates of one article: all succeed, it ends on one written state, updatedAt never goes back', async () => {
    const created = await post<ArticleAnswer>('/article/create', { content: 'first', tag: [{ name: 'first' }] });
    const id = created.data.id;
    const writes = Array.from({ length: 30 }, (_, index) => ({
      id,
      title: `title ${index}`,
      content: `content ${index}`,
      tag: [{ name: `tag ${index}` }, { name: 'shared' }],
      category: [{ name: `category ${index % 3}` }],
    }));

    // A reader polls the article while the updates race, as a client refreshing a page would.
    let racing = true;
    const seen: ArticleAnswer[] = [];
    const reader = (async () => {
      while (racing) seen.push((await get<ArticleAnswer>(`/article/${id}`)).data);
    })();
    const answers = await Promise.all(writes.map((write) => post<ArticleAnswer>('/article/update', write)));
    racing = false;
    await reader;

    expect(answers.map((answer) => answer.status)).toEqual(writes.map(() => 200));
    const final = (await get<ArticleAnswer>(`/article/${id}`)).data;
    const index = writes.findIndex((write) => write.title === final.title);
    expect(index).toBeGreaterThanOrEqual(0);
    // Every field and link from that same write: no mix of two updates.
    expect(final).toMatchObject({ content: `content ${index}`, category: [{ name: `category ${index % 3}` }] });
    expect(names(final.tag)).toEqual(['shared', `tag ${index}`]);

    // The last committed update carries the latest stamp, and a reader never sees time go back.
    const stamps = answers.map((answer) => Date.parse(answer.data.updatedAt));
    expect(Date.parse(final.updatedAt)).toBe(Math.max(...stamps));
    const observed = seen.map((article) => Date.parse(article.updatedAt));
    expect(observed).toEqual([...observed].sort((a, b) => a - b));
    for (const article of seen) {
      expect(writes.some((write) => write.title === article.title) || article.content === 'first').toBe(true);
    }
  });

  it('parallel creates and updates naming the same new tags and categories: one row per name, every link', async () => {
    const existing = await Promise.all(
      [1, 2, 3].map((n) => post<ArticleAnswer>('/article/create', { content: `existing ${n}` })),
    );
    const tagNames = ['alpha', 'beta', 'gamma', 'δέλτα', '🦀'];
    const categoryNames = ['news', 'tech'];
    const creates = Array.from({ length: 24 }, (_, index) =>
      post<ArticleAnswer>('/article/create', {
        content: `racer ${index}`,
        // Names are trimmed: " alpha " is the same tag as "alpha".
        tag: [...shuffled(tagNames, index).map((name) => ({ name: index % 4 === 0 ? ` ${name} ` : name }))],
        category: shuffled(categoryNames, index).map((name) => ({ name, description: `from racer ${index}` })),
      }),
    );
    const updates = existing.map((article, index) =>
      post<ArticleAnswer>('/article/update', {
        id: article.data.id,
        tag: shuffled(tagNames, index + 100).map((name) => ({ name })),
        category: [{ name: 'news' }],
      }),
    );
    const answers = await Promise.all([...creates, ...updates]);
    expect(answers.map((answer) => answer.status)).toEqual([...creates.map(() => 201), ...updates.map(() => 200)]);

    const tags = (await get<{ id: string; name: string }[]>('/tag')).data;
    const categories = (await get<{ id: string; name: string; description: string }[]>('/category')).data;
    expect(names(tags)).toEqual([...tagNames].sort());
    expect(names(categories)).toEqual(['news', 'tech']);
    // The description is the one of whichever request created the category.
    expect(categories[0]?.description).toMatch(/^from racer \d+$/);

    const articles = (await get<ArticleAnswer[]>('/article')).data;
    expect(articles).toHaveLength(27);
    const tagIds = new Set(tags.map((tag) => (tag as { id: string }).id));
    for (const article of articles) {
      expect(new Set(article.tag.map((tag) => (tag as unknown as { id: string }).id))).toEqual(tagIds);
      const expected = article.content.startsWith('racer') ? ['news', 'tech'] : ['news'];
      expect(names(article.category)).toEqual(expected);
    }
  });

  it('parallel seeds: every one answers, and all their articles are stored once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get<ArticleAnswer[]>('/seed/create')));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    for (const answer of answers) {
      const ids = answer.data.map((article) => article.id);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    const articles = (await get<ArticleAnswer[]>('/article')).data;
    expect(articles).toHaveLength(24);
    expect(new Set(articles.map((article) => article.id)).size).toBe(24);
    for (const n of [1, 2, 3]) {
      const seeded = articles.filter((article) => article.title === `Article ${n}`);
      expect(seeded).toHaveLength(8);
      expect(seeded.every((article) => article.content === `Content ${n}`)).toBe(true);
    }
    // The last seed to answer saw all of them.
    expect(Math.max(...answers.map((answer) => answer.data.length))).toBe(24);
  });
});
