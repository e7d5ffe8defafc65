/** Where the next page of GET /article is: the same limit and filters, after the last id shown. */
export interface NextPage {
  limit: number;
  after: number;
  tag?: string;
  category?: string;
  q?: string;
}

/** The `Link` header of a full page: `</article?limit=L&after=ID[&tag=…][&category=…][&q=…]>; rel="next"`. */
export function nextPageLink(next: NextPage): string {
  let target = `/article?limit=${next.limit}&after=${next.after}`;
  if (next.tag !== undefined) target += `&tag=${encodeURIComponent(next.tag)}`;
  if (next.category !== undefined) target += `&category=${encodeURIComponent(next.category)}`;
  if (next.q !== undefined) target += `&q=${encodeURIComponent(next.q)}`;
  return `<${target}>; rel="next"`;
}
