/**
 * Where the next page of GET /article is: the same limit, order and filters, after the last
 * article shown (`after`, its id, in id order; `cursor`, its position, newest first).
 */
export interface NextPage {
  limit: number;
  after?: number;
  cursor?: string;
  tag?: string;
  category?: string;
  featured?: boolean;
  author?: string;
  q?: string;
}

/**
 * The `Link` header of a full page: `</article?limit=L&after=ID[&tag=…][&category=…][&featured=…][&author=…][&q=…]>; rel="next"`,
 * or newest first `</article?limit=L&order=newest&cursor=C[&…]>; rel="next"`.
 */
export function nextPageLink(next: NextPage): string {
  let target = `/article?limit=${next.limit}`;
  target += next.cursor === undefined ? `&after=${next.after}` : `&order=newest&cursor=${next.cursor}`;
  if (next.tag !== undefined) target += `&tag=${encodeURIComponent(next.tag)}`;
  if (next.category !== undefined) target += `&category=${encodeURIComponent(next.category)}`;
  if (next.featured !== undefined) target += `&featured=${next.featured}`;
  // A slug needs no escaping ([a-z0-9-]).
  if (next.author !== undefined) target += `&author=${next.author}`;
  if (next.q !== undefined) target += `&q=${encodeURIComponent(next.q)}`;
  return `<${target}>; rel="next"`;
}

/** The `Link` header of a full page of revisions: `</article/ID/revisions?limit=L&before=N>; rel="next"`. */
export function nextRevisionsLink(id: number, limit: number, lastRevision: number): string {
  return `</article/${id}/revisions?limit=${limit}&before=${lastRevision}>; rel="next"`;
}
