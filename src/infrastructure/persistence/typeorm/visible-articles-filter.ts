import type { VisibleArticlesFilter } from '../../../application';
import { codePointLength, type TermKind } from '../../../domain';
import { TABLE } from './entities';
import type { SqlDialect } from './sql-dialect';

/**
 * How a list of visible articles is narrowed, built in this one place for every statement that
 * lists them (a page, and the whole list read through one statement). Each combination is a
 * statement of its own, so each has a plan of its own.
 */
export interface FilterShape {
  /** `id`: by id ascending from `after`. `newest`: publishedAt then id descending, from the start. `newest-after`: from a position. */
  order: 'id' | 'newest' | 'newest-after';
  tag: boolean;
  category: boolean;
  /** By an author's slug. */
  author: boolean;
  featured: boolean;
  /**
   * `indexed`: a query long enough for the trigram index (3 code points: one trigram);
   * `scan`: a shorter one, checked row by row as the articles are read in id order;
   * `probe`: `scan` over the ids up to the bound in the parameter after the filter's (see
   * SqlDialect.probesBeforeSearchIndex).
   */
  search: 'none' | 'indexed' | 'scan' | 'probe';
}

/** The trigram indexes serve a query of at least this many code points. */
export const INDEXED_QUERY_MIN_LENGTH = 3;

/**
 * How many ids past `after` a probe reads (SqlDialect.probesBeforeSearchIndex): a full page of
 * 20 there needs a word on about 1 article in 13 or more. Reading them costs about one to three
 * plain pages (measured at 100,000 articles under load: 0.3-1.1 ms for 256 ids, 0.6-2.6 ms for
 * 512); a rarer word pays it before the index, a commoner one saves the index's 10-30 ms.
 */
export const PROBE_IDS = 256;

export function filterShapeOf(filter: VisibleArticlesFilter): FilterShape {
  const query = filter.foldedQuery;
  const newest = filter.order === 'newest';
  return {
    order: newest ? (filter.before ? 'newest-after' : 'newest') : 'id',
    tag: filter.tagName !== undefined,
    category: filter.categoryName !== undefined,
    author: filter.author !== undefined,
    featured: filter.featured !== undefined,
    // Newest first, the articles are walked in publishedAt order: an index in id order cannot drive.
    search:
      query === undefined ? 'none' : codePointLength(query) >= INDEXED_QUERY_MIN_LENGTH && !newest ? 'indexed' : 'scan',
  };
}

/**
 * A key per shape, for statement names, short enough that every name stays within PostgreSQL's
 * 63 characters (a longer one is cut, and two cut alike would be one prepared statement):
 * `_n` newest first, `_na` newest first from a position; `_t` tag, `_c` category, `_a` author, `_f` featured;
 * `_si`, `_ss`, `_sp` an indexed, scanned or probed search. `_n_t_f_si`, `_t_c`.
 */
export function filterShapeSuffix(shape: FilterShape): string {
  const order = { id: '', newest: '_n', 'newest-after': '_na' }[shape.order];
  const search = { none: '', indexed: '_si', scan: '_ss', probe: '_sp' }[shape.search];
  return `${order}${shape.tag ? '_t' : ''}${shape.category ? '_c' : ''}${shape.author ? '_a' : ''}${shape.featured ? '_f' : ''}${search}`;
}

/**
 * The FROM, WHERE and ORDER BY of the articles (alias `a`) published at the instant in parameter
 * `params.moment` that match a filter of this shape; the filter's values (filterValues: in id
 * order the id to start after first) are the parameters from `params.firstFilter` on, in order.
 * `after` is that id's parameter (null newest first). A filtered list in id order walks an index
 * in article order (the link table's (term, article) index, or SQLite's full-text index, whose
 * rows come by rowid) and stops at the page's end, so its cost does not grow with the number of
 * articles. Newest first, the articles' (published_at, id) index drives, and the links are
 * joined to it.
 */
export function filterClauses(
  d: SqlDialect,
  shape: FilterShape,
  params: { moment: number; firstFilter: number },
): { from: string; where: string; order: string; after: string | null } {
  if (shape.order !== 'id') return { ...newestClauses(d, shape, params), after: null };
  let next = params.firstFilter;
  const after = d.param(next++);
  const tagParam = shape.tag ? d.param(next++) : '';
  const categoryParam = shape.category ? d.param(next++) : '';
  const authorParam = shape.author ? d.param(next++) : '';
  const featuredParam = shape.featured ? d.param(next++) : '';
  const search = shape.search === 'none' ? null : d.searchFolded('a', d.param(next++), shape.search === 'indexed');
  const index = search?.index;
  // The bound on both sides of a join: PostgreSQL then starts each index at `after`, not at the
  // first article (measured: a tag page at after=50,000 read 45,000 rows without it).
  const where = [`a.published_at <= ${d.param(params.moment)}`, `a.id > ${after}`];
  if (shape.featured) where.push(`a.featured = ${featuredParam}`);
  if (shape.author) where.push(`a.author_id = ${authorId(authorParam)}`);
  // What the statement walks in id order (the articles, or an index of the filter's), then joins.
  let driver = 'articles a';
  let order = 'a.id';
  const joins: string[] = [];
  if (index) {
    // The full-text index drives, in rowid order from `after`; CROSS JOIN keeps SQLite from
    // reordering (it would read every match of a common word, then sort: 300-500 ms with a tag).
    driver = index.table;
    order = index.rowId;
    joins.push(`CROSS JOIN articles a ON a.id = ${index.rowId}`);
    where.push(`${index.rowId} > ${after}`);
  }
  if (shape.tag) {
    if (index) {
      joins.push(`CROSS JOIN ${TABLE.link.tag} lt ON lt.article_id = a.id`);
    } else {
      driver = `${TABLE.link.tag} lt`;
      order = 'lt.article_id';
      joins.push('JOIN articles a ON a.id = lt.article_id');
    }
    where.push(`lt.${TABLE.linkTermColumn.tag} = ${termId('tag', tagParam)}`, `lt.article_id > ${after}`);
  }
  if (shape.category) {
    joins.push(`JOIN ${TABLE.link.category} lc ON lc.article_id = a.id
                AND lc.${TABLE.linkTermColumn.category} = ${termId('category', categoryParam)} AND lc.article_id > ${after}`);
  }
  if (search) where.push(search.condition);
  if (shape.search === 'probe') where.push(`a.id <= ${d.param(next++)}`);
  const from = [driver, ...joins].join(' ');
  return { from, where: where.join(' AND '), order, after };
}

const termId = (kind: TermKind, param: string) => `(SELECT id FROM ${TABLE.term[kind]} WHERE name = ${param})`;
/** The id of the author whose slug is the parameter: null, matching no article, when none has it. */
const authorId = (param: string) => `(SELECT id FROM authors WHERE slug = ${param})`;

/** filterClauses newest first: the articles in (published_at, id) order, descending, from a position when there is one. */
function newestClauses(d: SqlDialect, shape: FilterShape, params: { moment: number; firstFilter: number }) {
  let next = params.firstFilter;
  const where = [`a.published_at <= ${d.param(params.moment)}`];
  const joins: string[] = [];
  for (const kind of ['tag', 'category'] as const) {
    if (!shape[kind]) continue;
    const alias = kind === 'tag' ? 'lt' : 'lc';
    joins.push(`JOIN ${TABLE.link[kind]} ${alias} ON ${alias}.article_id = a.id
                AND ${alias}.${TABLE.linkTermColumn[kind]} = ${termId(kind, d.param(next++))}`);
  }
  if (shape.author) where.push(`a.author_id = ${authorId(d.param(next++))}`);
  if (shape.featured) where.push(`a.featured = ${d.param(next++)}`);
  if (shape.search !== 'none') where.push(d.searchFolded('a', d.param(next++), false).condition);
  if (shape.order === 'newest-after') {
    where.push(`(a.published_at, a.id) < (${d.param(next)}, ${d.param(next + 1)})`);
  }
  return {
    from: ['articles a', ...joins].join(' '),
    where: where.join(' AND '),
    order: 'a.published_at DESC, a.id DESC',
  };
}

/**
 * The values of the filter's parameters for a statement of this shape, in the order
 * filterClauses numbers them (in id order, the id to start after first); a probe reads ids up to
 * `probeUpTo`.
 */
export function filterValues(
  d: SqlDialect,
  filter: VisibleArticlesFilter,
  shape: FilterShape = filterShapeOf(filter),
  probeUpTo = 0,
): unknown[] {
  const values: unknown[] = shape.order === 'id' ? [filter.afterId ?? 0] : [];
  if (filter.tagName !== undefined) values.push(filter.tagName);
  if (filter.categoryName !== undefined) values.push(filter.categoryName);
  if (filter.author !== undefined) values.push(filter.author);
  if (filter.featured !== undefined) values.push(d.encodeBoolean(filter.featured));
  if (filter.foldedQuery !== undefined) values.push(d.searchValue(filter.foldedQuery));
  if (shape.search === 'probe') values.push(probeUpTo);
  if (shape.order === 'newest-after' && filter.before) {
    values.push(d.encodeTimestamp(filter.before.publishedAt), filter.before.id);
  }
  return values;
}
