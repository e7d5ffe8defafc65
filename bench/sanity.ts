import { isDeepStrictEqual } from 'node:util';
import type { PreparedDataset } from './dataset';
import { call } from './http-client';

type Json = Record<string, unknown>;

/**
 * Before measuring, the baseline must answer what the service answers: the same articles,
 * fields in the same order, terms in the same order. Writes are compared without the values
 * that differ by nature (id, timestamps, new term ids). Throws on the first difference.
 */
export async function checkSameAnswers(serviceUrl: string, baselineUrl: string, dataset: PreparedDataset) {
  // With the token: a draft is the service's answer to its writer, as it is the floors' to anyone.
  const both = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    Promise.all([
      call<unknown>(serviceUrl, method, path, body, true),
      call<unknown>(baselineUrl, method, path, body, true),
    ]);

  for (const id of [dataset.ids[0], dataset.ids[9], dataset.lastId, dataset.lastId + 1_000_000]) {
    expectSame(`GET /article/${id}`, ...(await both('GET', `/article/${id}`)));
  }
  expectSame('GET /article', ...(await both('GET', '/article')));

  const create = {
    title: null,
    content: 'sanity check',
    visible: false,
    tag: [{ name: 'tag-05' }, { name: 'tag-01' }],
    category: [{ name: 'category-2' }],
  };
  const [serviceCreated, baselineCreated] = (await both('POST', '/article/create', create)) as [Json, Json];
  expectSame('POST /article/create', withoutIdentity(serviceCreated), withoutIdentity(baselineCreated));
  expectOneSlugEach(serviceCreated, baselineCreated);

  const update = (id: unknown) => ({ id, title: 'sanity update', tag: [{ name: 'tag-09' }] });
  const serviceUpdated = await call<Json>(serviceUrl, 'POST', '/article/update', update(serviceCreated.id));
  const baselineUpdated = await call<Json>(baselineUrl, 'POST', '/article/update', update(baselineCreated.id));
  expectSame('POST /article/update', withoutIdentity(serviceUpdated), withoutIdentity(baselineUpdated));
  // The service's own answer to a read must equal its answer to the update (a draft: read with the token).
  const read = await call<Json>(serviceUrl, 'GET', `/article/${serviceUpdated.id}`, undefined, true);
  expectSame('update then GET', serviceUpdated, read);
}

/**
 * The article without what differs by nature between two writes of the same request on one
 * database: the id, the times (publishedAt only when set: null, a draft, must be null on both),
 * and the slug's `-n` (the two creates race for one slug, the second gets the next free one).
 */
function withoutIdentity(article: Json): Json {
  const publishedAt = article.publishedAt === null ? null : '';
  return { ...article, id: 0, createdAt: '', updatedAt: '', publishedAt, slug: slugBase(article.slug) };
}

const slugBase = (slug: unknown) => String(slug).replace(/-[0-9]+$/, '');

/**
 * Two creates of one title at once: the unique index gives its slug to one of them (the first to
 * commit) and the other the title's slug with a `-n` (the smallest free), as the service decides it.
 */
function expectOneSlugEach(service: Json, baseline: Json): void {
  const slugs = [service.slug, baseline.slug];
  const bare = slugs.filter((slug) => slug === slugBase(slug));
  if (bare.length !== 1 || service.slug === baseline.slug) {
    throw new Error(`POST /article/create: slugs ${JSON.stringify(slugs)}, expected one bare and one with -n`);
  }
}

function expectSame(what: string, service: unknown, baseline: unknown): void {
  // JSON text comparison also checks the order of the fields.
  if (JSON.stringify(service) === JSON.stringify(baseline) && isDeepStrictEqual(service, baseline)) return;
  throw new Error(
    `${what}: the baseline answers differently from the service\nservice:  ${JSON.stringify(service).slice(0, 600)}\nbaseline: ${JSON.stringify(baseline).slice(0, 600)}`,
  );
}
