import type { Exchange } from '../raw-http';
import type { CreateFacts, ListedIds, ReadFacts, SeenArticle } from './operation-facts';

/** An article in an answer, in the fields the history reads. */
interface ArticleData {
  id: number;
  visible: boolean;
}

const isOk = (exchange: Exchange) => exchange.kind === 'answered' && exchange.status >= 200 && exchange.status < 300;
const dataOf = (body: unknown): unknown => (body as { data?: unknown } | undefined)?.data;

/** A create: what it sent, and the id of a 2xx answer. `body` is the answer's parsed JSON. */
export function createFacts(
  title: string | null,
  key: string | undefined,
  exchange: Exchange,
  body: unknown,
): CreateFacts {
  const id = (dataOf(body) as { id?: unknown } | undefined)?.id;
  return {
    kind: 'create',
    title,
    ...(key === undefined ? {} : { key }),
    ...(isOk(exchange) && typeof id === 'number' ? { createdId: id } : {}),
  };
}

/** GET /article/:id: the article with its version (from its ETag), or that it does not exist. */
export function articleReadFacts(id: number, exchange: Exchange, body: unknown): ReadFacts {
  if (!isOk(exchange) || exchange.kind !== 'answered') return { kind: 'read' };
  const article = dataOf(body) as ArticleData | null | undefined;
  if (article === undefined) return { kind: 'read' };
  if (article === null) return { kind: 'read', observed: { present: [], missing: [id] } };
  const seen: SeenArticle = { id: article.id, visible: article.visible };
  const version = versionIn(exchange.headers.etag, article.id);
  if (version !== undefined) seen.version = version;
  return { kind: 'read', observed: { present: [seen], missing: [] } };
}

/**
 * GET /article (visible articles in id order): the ids listed. Unfiltered, it also lists every
 * visible article after `after`, up to the end or, for a full page of `limit`, its last id.
 */
export function listReadFacts(
  exchange: Exchange,
  body: unknown,
  page: { after?: number; limit?: number; filtered?: boolean } = {},
): ReadFacts {
  const articles = dataOf(body);
  if (!isOk(exchange) || !Array.isArray(articles)) return { kind: 'read' };
  const ids = (articles as ArticleData[]).map((article) => article.id);
  const full = page.limit !== undefined && ids.length >= page.limit;
  const upTo = full ? (ids.at(-1) ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
  const listed: ListedIds = page.filtered ? { ids } : { ids, covers: { after: page.after ?? 0, upTo } };
  return { kind: 'read', observed: { present: [], missing: [], listed } };
}

/** The version in an article's entity tag `"<id>-<version>"`. */
function versionIn(etag: string | string[] | undefined, id: number): number | undefined {
  const match = typeof etag === 'string' ? /^"(\d+)-(\d+)"$/.exec(etag) : null;
  return match && Number(match[1]) === id ? Number(match[2]) : undefined;
}
