import createClient, { type Client } from 'openapi-fetch';
import { CalledOperations, documentedOperations } from '../support/called-operations';
import { type ListeningHarness, openListeningHarness } from '../support/listening-harness';
import type { components, paths } from './generated/api-types';

type Failure = components['schemas']['Failure'];
type CreateArticleBody = components['schemas']['CreateArticleBody'];

const TOKEN = 'generated-client-token';

/**
 * Issue 26: a client generated from the document works. The client is openapi-fetch over the
 * types openapi-typescript generated from the document (`npm run openapi:client`), so this file
 * compiling without a cast (`npm run typecheck`) is half of the proof; the calls below are the
 * other half. The service has an API token (writes carry the bearer token) and the seed route on.
 */
describe('a client generated from the OpenAPI document', () => {
  let service: ListeningHarness;
  let client: Client<paths>;
  const called = new CalledOperations();

  beforeAll(async () => {
    service = await openListeningHarness('memory', {
      config: { apiToken: TOKEN, seedEnabled: true, webhookPrivateNetworks: true },
    });
    client = createClient<paths>({ baseUrl: service.baseUrl, headers: { Authorization: `Bearer ${TOKEN}` } });
    client.use(called.middleware);
  });

  afterAll(() => service.close());

  /** Creates an article through the client; its answer and ETag, or the test fails. */
  async function create(body: CreateArticleBody) {
    const { data, response } = await client.POST('/article/create', { body });
    const etag = response.headers.get('ETag');
    if (!data || etag === null) throw new Error(`create answered ${response.status}, ETag ${etag}`);
    return { article: data.data, etag };
  }

  /**
   * A failure's message, typed as the document's wrapper so that `error` must be one to be passed
   * here. Without `data`: openapi-fetch 0.17's `Readable` (openapi-typescript-helpers 0.1) drops
   * every property typed exactly `null` (its NonNullable is never, which passes its writeOnly test);
   * the tests check at run time that `data` is null.
   */
  function messageOf(failure: Omit<Failure, 'data'> | undefined): string | undefined {
    return failure?.message;
  }

  it('creates an article with tags and categories by name, and a retry under the same Idempotency-Key answers it again', async () => {
    const body = {
      title: 'Typed clients',
      description: 'Generated from the document',
      content: 'openapi-typescript writes the types; openapi-fetch calls the service.',
      tag: [{ name: 'client-tag' }],
      category: [{ name: 'client-category' }],
    };
    const first = await client.POST('/article/create', {
      body,
      params: { header: { 'Idempotency-Key': 'generated-client-create-1' } },
    });
    expect(first.response.status).toBe(201);
    expect(first.data?.data).toMatchObject({
      title: 'Typed clients',
      description: 'Generated from the document',
      content: body.content,
      visible: true,
      tag: [{ name: 'client-tag', description: null }],
      category: [{ name: 'client-category', description: null }],
    });
    expect(first.response.headers.get('ETag')).toMatch(/^"\d+-\d+"$/);

    const retry = await client.POST('/article/create', {
      body,
      params: { header: { 'Idempotency-Key': 'generated-client-create-1' } },
    });
    expect(retry.response.status).toBe(201);
    expect(retry.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.data?.data.id).toBe(first.data?.data.id);
  });

  it('reads an article by id, answers 304 while If-None-Match names its ETag, and null for an unknown id', async () => {
    const { article, etag } = await create({ title: 'Read me', content: 'Read through the client.' });
    const read = await client.GET('/article/{id}', { params: { path: { id: String(article.id) } } });
    expect(read.response.status).toBe(200);
    expect(read.data?.data).toEqual(article);
    expect(read.response.headers.get('ETag')).toBe(etag);

    const unchanged = await client.GET('/article/{id}', {
      params: { path: { id: String(article.id) }, header: { 'If-None-Match': etag } },
    });
    expect(unchanged.response.status).toBe(304);

    const none = await client.GET('/article/{id}', { params: { path: { id: '2147483647' } } });
    expect(none.response.status).toBe(200);
    expect(none.data?.data).toBeNull();
  });

  it('reads an article by slug, follows an earlier slug, and sees its 301 when not following', async () => {
    const { article, etag } = await create({ title: 'Slugged by the client', content: 'Found by its slug.' });
    expect(article.slug).toBe('slugged-by-the-client');
    const read = await client.GET('/article/slug/{slug}', { params: { path: { slug: article.slug } } });
    expect(read.response.status).toBe(200);
    expect(read.data?.data).toEqual(article);
    expect(read.response.headers.get('ETag')).toBe(etag);

    const renamed = await client.POST('/article/update', { body: { id: article.id, slug: 'renamed-by-the-client' } });
    expect(renamed.data?.data.slug).toBe('renamed-by-the-client');
    const followed = await client.GET('/article/slug/{slug}', { params: { path: { slug: article.slug } } });
    expect(followed.response.status).toBe(200);
    expect(followed.data?.data).toEqual(renamed.data?.data);
    // openapi-fetch types the bodies of 2xx answers as `data` and of 4xx and 5xx as `error`; a 301's
    // body, untyped, comes in `error`.
    const moved = await client.GET('/article/slug/{slug}', {
      params: { path: { slug: article.slug } },
      redirect: 'manual',
    });
    expect(moved.response.status).toBe(301);
    expect(moved.response.headers.get('Location')).toBe('/article/slug/renamed-by-the-client');
    expect(moved.error).toEqual({
      statusCode: 10000,
      data: { id: article.id, slug: 'renamed-by-the-client' },
      message: 'Success',
    });

    const unknown = await client.GET('/article/slug/{slug}', { params: { path: { slug: 'nobody-has-this-slug' } } });
    expect(unknown.response.status).toBe(404);
    expect(messageOf(unknown.error)).toMatch(/^slug: /);
  });

  it('schedules, makes drafts, features, and pages newest first with the cursor of the Link', async () => {
    const scheduled = await create({ content: 'scheduled by the client', publishedAt: '2999-01-01T00:00:00+02:00' });
    expect(scheduled.article).toMatchObject({
      status: 'scheduled',
      visible: false,
      publishedAt: '2998-12-31T22:00:00.000Z',
    });
    expect(scheduled.etag).toMatch(/^"\d+-\d+s"$/);
    const draft = await create({ content: 'a draft of the client', visible: false, featured: true });
    expect(draft.article).toMatchObject({ status: 'draft', publishedAt: null, featured: true });
    const older = await create({ content: 'older, featured', featured: true, publishedAt: '2001-01-01T00:00:00Z' });
    const newer = await create({ content: 'newer, featured', featured: true, publishedAt: '2001-01-02T00:00:00Z' });

    const both = await client.POST('/article/create', {
      body: { content: 'both', visible: true, publishedAt: '2001-01-01T00:00:00Z' },
    });
    expect(both.response.status).toBe(400);
    expect(messageOf(both.error)).toBe('visible, publishedAt: give one of them, not both');

    const first = await client.GET('/article', {
      params: { query: { order: 'newest', featured: 'true', limit: '1' } },
    });
    expect(first.data?.data.map((article) => article.id)).toEqual([newer.article.id]);
    const link = first.response.headers.get('Link') ?? '';
    const cursor = /[?&]cursor=([A-Za-z0-9_-]+)/.exec(link)?.[1] ?? '';
    expect(link).toBe(`</article?limit=1&order=newest&cursor=${cursor}&featured=true>; rel="next"`);
    const second = await client.GET('/article', {
      params: { query: { order: 'newest', cursor, featured: 'true', limit: '1' } },
    });
    expect(second.data?.data.map((article) => article.id)).toEqual([older.article.id]);
  });

  it('seeds the three demo articles', async () => {
    const { data, response } = await client.GET('/seed/create');
    expect(response.status).toBe(200);
    expect(data?.data.map((article) => article.title)).toEqual(
      expect.arrayContaining(['Article 1', 'Article 2', 'Article 3']),
    );
  });

  it('lists the whole list, a page with limit and after, by tag, by category and by search', async () => {
    const one = await create({ content: 'first of the list', tag: [{ name: 'list-tag' }] });
    const two = await create({ content: 'second of the list', category: [{ name: 'list-category' }] });
    const three = await create({ content: 'third of the list, findable-needle' });

    const whole = await client.GET('/article');
    expect(whole.response.status).toBe(200);
    const ids = whole.data?.data.map((article) => article.id) ?? [];
    expect(ids).toEqual(expect.arrayContaining([one.article.id, two.article.id, three.article.id]));

    const page = await client.GET('/article', { params: { query: { limit: '2', after: String(one.article.id - 1) } } });
    expect(page.data?.data.map((article) => article.id)).toEqual([one.article.id, two.article.id]);
    expect(page.response.headers.get('Link')).toBe(`</article?limit=2&after=${two.article.id}>; rel="next"`);

    const tagged = await client.GET('/article', { params: { query: { tag: 'list-tag' } } });
    expect(tagged.data?.data.map((article) => article.id)).toEqual([one.article.id]);
    const inCategory = await client.GET('/article', { params: { query: { category: 'list-category' } } });
    expect(inCategory.data?.data.map((article) => article.id)).toEqual([two.article.id]);
    const found = await client.GET('/article', { params: { query: { q: 'FINDABLE-needle' } } });
    expect(found.data?.data.map((article) => article.id)).toEqual([three.article.id]);

    // The list's weak ETag, typed as a header the answer always has, revalidates the page.
    const pageTag = page.response.headers.get('ETag') ?? '';
    const unchanged = await client.GET('/article', {
      params: { query: { limit: '2', after: String(one.article.id - 1) }, header: { 'If-None-Match': pageTag } },
    });
    expect(unchanged.response.status).toBe(304);
    expect(unchanged.response.headers.get('ETag')).toBe(pageTag);
  });

  it('gets a 400 with the wrapper in `error` for an input the document types but the service refuses', async () => {
    const { data, error, response } = await client.GET('/article', { params: { query: { limit: '0' } } });
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(error).toEqual({ statusCode: 10001, data: null, message: expect.any(String) });
    expect(messageOf(error)).toMatch(/^limit: /);
  });

  it('updates with If-Match from the ETag, and refuses a stale one with 412', async () => {
    const { article, etag } = await create({ title: 'Before', content: 'To be changed.' });
    const updated = await client.POST('/article/update', {
      body: { id: article.id, title: 'After', tag: [{ name: 'updated-tag' }] },
      params: { header: { 'If-Match': etag } },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data).toMatchObject({ id: article.id, title: 'After', content: 'To be changed.' });
    expect(updated.data?.data.tag.map((term) => term.name)).toEqual(['updated-tag']);
    expect(updated.response.headers.get('ETag')).not.toBe(etag);

    const stale = await client.POST('/article/update', {
      body: { id: article.id, title: 'Lost' },
      params: { header: { 'If-Match': etag } },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toEqual({ statusCode: 10001, data: null, message: expect.any(String) });
    expect(messageOf(stale.error)).not.toBe('');
  });

  it('deletes with If-Match, answering the article as it was', async () => {
    const { article, etag } = await create({ title: 'Going', content: 'To be deleted.' });
    const deleted = await client.POST('/article/delete', {
      body: { id: article.id },
      params: { header: { 'If-Match': etag } },
    });
    expect(deleted.response.status).toBe(200);
    expect(deleted.data?.data).toEqual(article);
    const after = await client.GET('/article/{id}', { params: { path: { id: String(article.id) } } });
    expect(after.data?.data).toBeNull();
  });

  it('lists the revisions of a deleted article, and restores it with its id', async () => {
    const { article } = await create({ title: 'Kept', content: 'Its revision stays.' });
    await client.POST('/article/delete', { body: { id: article.id } });
    const revisions = await client.GET('/article/{id}/revisions', {
      params: { path: { id: String(article.id) }, query: { limit: '10' } },
    });
    expect(revisions.response.status).toBe(200);
    expect(revisions.data?.data).toEqual([{ revision: 1, replacedAt: expect.any(String), article }]);
    const restored = await client.POST('/article/restore', { body: { id: article.id, revision: 1 } });
    expect(restored.response.status).toBe(200);
    expect(restored.data?.data).toMatchObject({ id: article.id, title: 'Kept', slug: article.slug });
    expect(restored.response.headers.get('etag')).toBe(`"${article.id}-2"`);
  });

  it('hands out a key (API_TOKEN is an admin), lists it without its token, revokes it; its articles carry their author', async () => {
    const made = await client.POST('/key/create', { body: { author: 'Typed Writer', role: 'author' } });
    expect(made.response.status).toBe(201);
    const key = made.data?.data;
    if (!key) throw new Error(`key create answered ${made.response.status}`);
    const writer = createClient<paths>({ baseUrl: service.baseUrl, headers: { Authorization: `Bearer ${key.token}` } });
    const written = await writer.POST('/article/create', { body: { content: 'by a key' } });
    expect(written.data?.data.author).toEqual(key.author);
    const listed = await client.GET('/key');
    expect(listed.data?.data.map((stored) => [stored.id, stored.prefix])).toContainEqual([key.id, key.prefix]);
    expect(JSON.stringify(listed.data)).not.toContain(key.token);
    const revoked = await client.POST('/key/revoke', { body: { id: key.id } });
    expect(revoked.data?.data.revokedAt).toEqual(expect.any(String));
    expect((await writer.GET('/article')).response.status).toBe(401);
  });

  it('subscribes a URL to events, reads its deliveries log, ends the subscription', async () => {
    const made = await client.POST('/webhook/create', {
      body: { url: `${service.baseUrl}/hooks`, events: ['article.deleted'], description: 'typed' },
    });
    expect(made.response.status).toBe(201);
    const webhook = made.data?.data;
    if (!webhook) throw new Error(`webhook create answered ${made.response.status}`);
    expect(webhook.secret).toMatch(/^whsec_/);
    const listed = await client.GET('/webhook');
    expect(listed.data?.data.map((found) => found.id)).toContain(webhook.id);
    const log = await client.GET('/webhook/{id}/deliveries', {
      params: { path: { id: webhook.id }, query: { limit: '5' } },
    });
    expect(log.data?.data).toEqual([]);
    const ended = await client.POST('/webhook/delete', { body: { id: webhook.id } });
    expect(ended.data?.data).toEqual({ ...webhook, secret: undefined });
  });

  it('lists the tags and the categories', async () => {
    await create({ content: 'with terms', tag: [{ name: 'terms-tag' }], category: [{ name: 'terms-category' }] });
    const tags = await client.GET('/tag');
    expect(tags.data?.data.map((term) => term.name)).toContain('terms-tag');
    const categories = await client.GET('/category');
    expect(categories.data?.data.map((term) => term.name)).toContain('terms-category');
  });

  it('reads the three feeds, the JSON Feed typed', async () => {
    await create({ title: 'In the feeds', content: 'fed' });
    const json = await client.GET('/feeds/feed.json', { params: { query: { featured: 'false' } } });
    expect(json.response.headers.get('Content-Type')).toBe('application/feed+json; charset=utf-8');
    expect(json.data?.items.map((item) => item.title)).toContain('In the feeds');
    for (const path of ['/feeds/rss.xml', '/feeds/atom.xml'] as const) {
      const xml = await client.GET(path, { parseAs: 'text' });
      expect(xml.data).toContain(
        '<title>In the feeds</title>'.replace('<title>', path.includes('atom') ? '<title type="text">' : '<title>'),
      );
    }
  });

  it('reads liveness and both readiness checks', async () => {
    expect((await client.GET('/health')).data?.data).toEqual({ status: 'ok' });
    expect((await client.GET('/ready')).data?.data).toEqual({ status: 'ready', writes: 'available' });
    expect((await client.GET('/ready/write')).data?.data).toEqual({ status: 'ready', writes: 'available' });
  });

  it('calls the demonstration user routes', async () => {
    const users = await client.GET('/user/list');
    expect(users.data).toMatchObject({ success: true, code: 10000 });
    expect(users.data?.data).toHaveLength(2);
    const added = await client.POST('/user/add');
    expect(added.data).toEqual({ success: true, code: 10000 });
  });

  it('reads the document, the docs page and the metrics (the last two as text)', async () => {
    const document = await client.GET('/openapi.json');
    expect(documentedOperations(document.data)).toContain('POST /article/create');
    const docs = await client.GET('/docs', { parseAs: 'text' });
    expect(docs.response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(docs.data).toContain('swagger-ui');
    const metrics = await client.GET('/metrics', { parseAs: 'text' });
    expect(metrics.response.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(metrics.data).toContain('# TYPE');
  });

  // Last: it checks what the tests above called. A new operation fails it until a call is added.
  it('called every operation of the served document, and none it lacks', async () => {
    const served = await fetch(`${service.baseUrl}/openapi.json`).then((response) => response.json());
    expect(called.list()).toEqual(documentedOperations(served).sort());
  });
});
