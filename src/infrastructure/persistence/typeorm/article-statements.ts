import type { TermKind } from '../../../domain';
import { TABLE } from './entities';
import type { SqlDialect } from './sql-dialect';
import { type FilterShape, filterClauses, filterShapeSuffix } from './visible-articles-filter';

/**
 * One statement of the repository. `name` identifies it (PostgreSQL prepares it once per
 * connection under that name); `text` is written once for both dialects from the dialect's
 * fragments. Values are positional: the n-th value is parameter n.
 */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
  /** PostgreSQL plans it for each call's values instead of preparing it once (a generic plan). */
  readonly planEachTime?: boolean;
}

export const TERM_KINDS: readonly TermKind[] = ['tag', 'category'];

const terms = (kind: TermKind) => TABLE.term[kind];
const links = (kind: TermKind) => TABLE.link[kind];
const termColumn = (kind: TermKind) => TABLE.linkTermColumn[kind];

/** The one cursor a PostgreSQL connection holds while it streams the list. */
const STREAM_CURSOR = 'visible_articles_stream';

/** Every statement of the repository for one dialect. */
export function articleStatements(d: SqlDialect) {
  const p = d.param;
  /** `a` is the articles table's name in the statement (SQLite's RETURNING knows no alias). */
  const columnsOf = (a: string) => `${a}.id, ${a}.title, ${a}.description, ${a}.content, ${a}.visible,
    ${d.epochMs(`${a}.created_at`)} AS "createdAt", ${d.epochMs(`${a}.updated_at`)} AS "updatedAt", ${a}.version`;
  const termsOf = (kind: TermKind, a: string) =>
    `(SELECT ${d.termsJsonArray} FROM ${links(kind)} l
        JOIN ${terms(kind)} t ON t.id = l.${termColumn(kind)} WHERE l.article_id = ${a}.id)`;
  const withTermsOf = (a: string) =>
    `${columnsOf(a)}, ${termsOf('tag', a)} AS tags, ${termsOf('category', a)} AS categories`;
  const articleColumns = columnsOf('a');
  const statement = (name: string, text: string): SqlStatement => ({ name: `article_repository_${name}`, text });
  /**
   * Data-changing statements that share their parameters: one statement where the dialect can
   * combine them (one round trip), else each on its own, in order.
   */
  const writes = (name: string, steps: SqlStatement[]): readonly SqlStatement[] =>
    d.combinesWrites
      ? [statement(name, `WITH ${steps.map((step, i) => `step_${i} AS (${step.text})`).join(', ')} SELECT 1`)]
      : steps;

  /**
   * Article `a`'s term ids of one kind in name order, as a JSON array: on PostgreSQL from the
   * link table aggregated per article, merge-joined in id order (a subquery per row re-reads
   * the terms table for each article: 3 times slower); on SQLite a subquery per row, which is
   * an index lookup there (a join would first aggregate every link, delaying the first row).
   */
  const termIdsOf = (kind: TermKind): { column: string; join: string } => {
    const alias = `ids_${kind}`;
    const idsOf = `${d.jsonArrayOf('t.id', 't.name')} AS ids FROM ${links(kind)} l JOIN ${terms(kind)} t ON t.id = l.${termColumn(kind)}`;
    return d.aggregatesLinksByJoin
      ? {
          column: `${alias}.ids`,
          join: ` LEFT JOIN (SELECT l.article_id, ${idsOf} WHERE l.article_id > ${p(1)} GROUP BY l.article_id) ${alias}
                  ON ${alias}.article_id = a.id`,
        }
      : { column: `(SELECT ${idsOf} WHERE l.article_id = a.id)`, join: '' };
  };

  /**
   * The visible articles after $1 that match a filter of this shape (its values from $3 on, see
   * visible-articles-filter.ts), at most $2 (the dialect's `unlimited` for every one). A `page`
   * answers the article columns (links come from linksOfArticles). A `stream` (the whole list,
   * read through a cursor) also answers each article's term ids in name order, two JSON arrays
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
      const { from, where, order } = filterClauses(d, shape, { after: 1, firstFilter: 3 });
      let columns = articleColumns;
      let joined = from;
      if (form === 'stream') {
        const [tagIds, categoryIds] = TERM_KINDS.map((kind) => termIdsOf(kind));
        columns += `, ${tagIds?.column} AS "tagIds", ${categoryIds?.column} AS "categoryIds"`;
        joined += `${tagIds?.join}${categoryIds?.join}`;
      }
      const text = `SELECT ${columns} FROM ${joined} WHERE ${where} ORDER BY ${order} LIMIT ${p(2)}`;
      found = { ...statement(name, text), planEachTime: shape.search !== 'none' };
      visibleStatements.set(name, found);
    }
    return found;
  };

  const insertLinks = TERM_KINDS.map((kind, index) =>
    statement(
      `insert_${kind}_links`,
      `INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)})
       SELECT CAST(${p(1)} AS integer), value FROM ${d.jsonElements(2 + index, 'text')} AS ids WHERE true
       ON CONFLICT DO NOTHING`,
    ),
  );
  /**
   * The terms whose ids or names are in JSON arrays, from parameter `first` on: tags' ids and
   * names, then categories' (four parameters).
   */
  const findTermsText = (first: number) =>
    TERM_KINDS.map(
      (kind, index) =>
        `SELECT '${kind}' AS kind, id, name, description FROM ${terms(kind)}
          WHERE id IN ${d.jsonElements(first + index * 2, 'text')} OR name IN ${d.jsonElements(first + 1 + index * 2, 'text')}`,
    ).join(' UNION ALL ');

  /**
   * Where the dialect combines writes (PostgreSQL), a create whose every reference names a term
   * that exists, in one statement: $1..$8 as insert_article, $9..$12 as find_terms. The article
   * is inserted, and linked to the terms found, only when each id and each name referenced was
   * found (every part reads one snapshot); it answers one row per term found, with the new
   * article's id. No row: nothing was written (an unknown id, or a name to create).
   */
  const createWithKnownTerms = () => {
    const everyReferenceFound = TERM_KINDS.flatMap((kind, index) =>
      (['id', 'name'] as const).map(
        (column, second) =>
          `NOT EXISTS (${d.jsonElements(9 + index * 2 + second, 'text')}
                       EXCEPT SELECT ${column} FROM found WHERE kind = '${kind}')`,
      ),
    ).join(' AND ');
    const linksOfKind = TERM_KINDS.map(
      (kind) =>
        `${kind}_links AS (INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)})
           SELECT inserted.id, found.id FROM inserted, found WHERE found.kind = '${kind}')`,
    ).join(', ');
    return statement(
      'create_with_known_terms',
      `WITH found AS (${findTermsText(9)}),
       inserted AS (
         INSERT INTO articles (title, description, content, visible, created_at, updated_at, version,
                               search_title, search_description, search_content)
         SELECT CAST(${p(1)} AS varchar), CAST(${p(2)} AS varchar), CAST(${p(3)} AS text), CAST(${p(4)} AS boolean),
                CAST(${p(5)} AS timestamptz), CAST(${p(5)} AS timestamptz), 1,
                CAST(${p(6)} AS text), CAST(${p(7)} AS text), CAST(${p(8)} AS text)
          WHERE ${everyReferenceFound}
         RETURNING id
       ), ${linksOfKind}
       SELECT inserted.id AS "articleId", found.kind, found.id, found.name, found.description FROM inserted, found`,
    );
  };

  const removeOtherLinks = TERM_KINDS.map((kind, index) =>
    statement(
      `remove_other_${kind}_links`,
      `DELETE FROM ${links(kind)} WHERE ${p(4 + index)} AND article_id = ${p(1)}
          AND ${termColumn(kind)} NOT IN ${d.jsonElements(2 + index, 'text')}`,
    ),
  );

  return {
    begin: statement('begin', d.begin),
    /** PostgreSQL: one snapshot for the transaction, so that its dataVersion is the stream's. */
    beginSnapshot: statement('begin_snapshot', 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'),
    dataVersion: statement('data_version', d.dataVersion),
    commit: statement('commit', 'COMMIT'),
    rollback: statement('rollback', 'ROLLBACK'),

    /** One article with its tags and categories as two JSON arrays: one statement, no row product. */
    findArticle: statement('find_article', `SELECT ${withTermsOf('a')} FROM articles a WHERE a.id = ${p(1)}`),
    /** The version of article $1, locking its row until the transaction ends (PostgreSQL). */
    lockArticle: statement('lock_article', `SELECT version FROM articles WHERE id = ${p(1)}${d.lockRow}`),
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
    /**
     * PostgreSQL: up to `limit` terms of both kinds, any of them (a stream that reads them all
     * at its start never looks one up; past the limit it looks up those its chunks link to).
     */
    someTerms: (limit: number) =>
      statement(
        `some_terms_${limit}`,
        `${TERM_KINDS.map((kind) => `SELECT '${kind}' AS kind, id, name, description FROM ${terms(kind)}`).join(
          ' UNION ALL ',
        )} LIMIT ${limit}`,
      ),
    /**
     * The links of the articles whose ids are in JSON array $1, compactly: per article and kind
     * one row with its term ids in name order (`ids`, a JSON array), and each linked term once
     * (`id`, `name`, `description`). A page of 500 articles with 5 links each is about 1,000
     * small rows instead of 2,500 wide ones: decoding those rows was most of a list's CPU.
     */
    linksOfArticles: statement(
      'links_of_articles',
      TERM_KINDS.map((kind) => {
        const inPage = `l.article_id IN ${d.jsonElements(1, 'int')}`;
        return `SELECT '${kind}' AS kind, l.article_id AS "articleId", ${d.jsonArrayOf('t.id', 't.name')} AS ids,
                       NULL AS id, NULL AS name, NULL AS description
                  FROM ${links(kind)} l JOIN ${terms(kind)} t ON t.id = l.${termColumn(kind)}
                 WHERE ${inPage} GROUP BY l.article_id
                UNION ALL
                SELECT '${kind}', NULL, NULL, t.id, t.name, t.description FROM ${terms(kind)} t
                 WHERE t.id IN (SELECT l.${termColumn(kind)} FROM ${links(kind)} l WHERE ${inPage})`;
      }).join(' UNION ALL '),
    ),
    listTerms: {
      tag: statement('list_tags', `SELECT id, name, description FROM ${terms('tag')} ORDER BY name`),
      category: statement('list_categories', `SELECT id, name, description FROM ${terms('category')} ORDER BY name`),
    },

    insertArticle: statement(
      'insert_article',
      `INSERT INTO articles (title, description, content, visible, created_at, updated_at, version,
                             search_title, search_description, search_content)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(5)}, 1, ${p(6)}, ${p(7)}, ${p(8)}) RETURNING id`,
    ),
    /**
     * Applies the fields whose value is not null ($2 says whether the nullable title is set),
     * moves updated_at to the later of $7 and the stored stamp, counts the version up, and
     * answers the article as written, all in one statement. With $8 (a JSON array of versions)
     * it changes the row only at one of those versions: check and write are one statement.
     * $9..$11 are the folded copies of title, description and content (searchableTextOf), set
     * with the fields they copy.
     */
    updateArticle: statement(
      'update_article',
      `UPDATE articles SET
         title = CASE WHEN ${p(2)} THEN ${p(3)} ELSE title END,
         description = COALESCE(${p(4)}, description),
         content = COALESCE(${p(5)}, content),
         visible = COALESCE(${p(6)}, visible),
         updated_at = ${d.greatest}(${p(7)}, updated_at),
         version = version + 1,
         search_title = CASE WHEN ${p(2)} THEN ${p(9)} ELSE search_title END,
         search_description = COALESCE(${p(10)}, search_description),
         search_content = COALESCE(${p(11)}, search_content)
       WHERE id = ${p(1)} AND (${d.jsonParam(8)} IS NULL OR version IN ${d.jsonElements(8, 'int')})
       RETURNING ${withTermsOf('articles')}`,
    ),
    deleteArticle: statement('delete_article', `DELETE FROM articles WHERE id = ${p(1)}`),

    /** The terms whose ids or names are in JSON arrays: tags $1 (ids) $2 (names), categories $3 $4. */
    findTerms: statement('find_terms', findTermsText(1)),
    /** null where the dialect cannot combine writes: there a create with references is a transaction. */
    createWithKnownTerms: d.combinesWrites ? createWithKnownTerms() : null,
    /**
     * Inserts new terms, tags from $1 and categories from $2 (JSON arrays of [id, name,
     * description]); a name that exists, or that a concurrent transaction inserts first, is
     * skipped (ON CONFLICT waits for that transaction). `WHERE true` tells SQLite's parser that
     * ON CONFLICT belongs to the INSERT.
     */
    insertTerms: writes(
      'insert_terms',
      TERM_KINDS.map((kind, index) =>
        statement(
          `insert_${kind}_terms`,
          `INSERT INTO ${terms(kind)} (id, name, description)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM ${d.jsonRows(1 + index)} WHERE true
         ON CONFLICT DO NOTHING`,
        ),
      ),
    ),
    /** Links article $1 to tags $2 and categories $3 (JSON arrays of ids); existing links stay. */
    insertLinks: writes('insert_links', insertLinks),
    /**
     * Makes article $1's tag links exactly $2 when $4, and its category links exactly $3 when
     * $5: drops the others, then adds the new ones.
     */
    replaceLinks: writes('replace_links', [...removeOtherLinks, ...insertLinks]),
  };
}

export type ArticleStatements = ReturnType<typeof articleStatements>;
