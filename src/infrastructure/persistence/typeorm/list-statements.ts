import type { TermKind } from '../../../domain';
import { TABLE } from './entities';
import { type SqlStatement, type StatementParts, TERM_KINDS } from './sql-statement';
import { type FilterShape, filterClauses, filterShapeSuffix } from './visible-articles-filter';

/** The one cursor a PostgreSQL connection holds while it streams the list. */
const STREAM_CURSOR = 'visible_articles_stream';

const links = (kind: TermKind) => TABLE.link[kind];
const termColumn = (kind: TermKind) => TABLE.linkTermColumn[kind];

/** The statements of lists: a page or the whole list of the articles published at a moment, by filter shape. */
export function listStatements({ d, statement, articleColumns }: StatementParts) {
  const p = d.param;
  /**
   * Article `a`'s term ids of one kind, as a JSON array in no particular order: the link table
   * alone, since the stream orders each article's terms by name itself, from the terms it
   * knows (joined to the terms and sorted by name here, the list cost PostgreSQL 40 % more
   * time). On PostgreSQL aggregated per article (from the id in `after`, in id order),
   * merge-joined in id order (a subquery per row re-reads the terms table for each article: 3
   * times slower); on SQLite a subquery per row, which is an index lookup there (a join would
   * first aggregate every link, delaying the first row).
   */
  const termIdsOf = (kind: TermKind, after: string | null): { column: string; join: string } => {
    const alias = `ids_${kind}`;
    const idsOf = `${d.jsonArrayOf(`l.${termColumn(kind)}`)} AS ids FROM ${links(kind)} l`;
    return d.aggregatesLinksByJoin
      ? {
          column: `${alias}.ids`,
          join: ` LEFT JOIN (SELECT l.article_id, ${idsOf} ${after ? `WHERE l.article_id > ${after}` : ''}
                  GROUP BY l.article_id) ${alias} ON ${alias}.article_id = a.id`,
        }
      : { column: `(SELECT ${idsOf} WHERE l.article_id = a.id)`, join: '' };
  };

  /**
   * The articles published at $2 that match a filter of this shape (its values, the position
   * included, from $3 on: see visible-articles-filter.ts), at most $1 (the dialect's `unlimited`
   * for every one). A `page`
   * answers the article columns (links come from linksOfArticles). A `stream` (the whole list,
   * read through a cursor) also answers each article's term ids, two JSON arrays
   * (`tagIds`, `categoryIds`); the terms themselves are read once per stream (findTerms), not
   * once per article: building a JSON object per link cost the database 2-3 times the plain
   * rows' time at 100,000 articles. A search is planned for its own query on PostgreSQL
   * (`planEachTime`): a word on most articles is best found walking the ids, a rare one through
   * the trigram index, and one generic plan cannot be right for both.
   */
  const visibleStatements = new Map<string, SqlStatement>();
  const visibleArticles = (shape: FilterShape, form: 'page' | 'stream'): SqlStatement => {
    const name = `${form}_of_visible${filterShapeSuffix(shape)}`;
    let found = visibleStatements.get(name);
    if (!found) {
      const { from, where, order, after } = filterClauses(d, shape, { moment: 2, firstFilter: 3 });
      let columns = articleColumns;
      let joined = from;
      if (form === 'stream') {
        const [tagIds, categoryIds] = TERM_KINDS.map((kind) => termIdsOf(kind, after));
        columns += `, ${tagIds?.column} AS "tagIds", ${categoryIds?.column} AS "categoryIds"`;
        joined += `${tagIds?.join}${categoryIds?.join}`;
      }
      const text = `SELECT ${columns} FROM ${joined} WHERE ${where} ORDER BY ${order} LIMIT ${p(1)}`;
      found = { ...statement(name, text), planEachTime: shape.search !== 'none' };
      visibleStatements.set(name, found);
    }
    return found;
  };

  return {
    pageOfVisible: (shape: FilterShape) => visibleArticles(shape, 'page'),
    streamOfVisible: (shape: FilterShape) => visibleArticles(shape, 'stream'),
    /** PostgreSQL: a stream statement as the cursor of its read-only transaction (COMMIT closes it). */
    declareStream: (select: SqlStatement): SqlStatement => ({
      ...statement(
        `declare_${select.name.replace('article_repository_', '')}`,
        `DECLARE ${STREAM_CURSOR} NO SCROLL CURSOR FOR ${select.text}`,
      ),
      planEachTime: select.planEachTime,
    }),
    fetchStream: (rows: number) => statement(`fetch_stream_${rows}`, `FETCH ${rows} FROM ${STREAM_CURSOR}`),
  };
}
