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

/**
 * The values of an article's insert, $1 to $ARTICLE_VALUES (insertArticleValues): title,
 * description, content, visible (kept for instances of the previous release, see the publishing
 * migration), created_at (also the first updated_at), the folded copies of title, description and
 * content, published_at, featured, slug. Statements that insert an article number their own
 * parameters after these.
 */
export const ARTICLE_VALUES = 11;

/** The columns of an article's insert, in the order of articleInsertValues. */
export const ARTICLE_INSERT_COLUMNS = `title, description, content, visible, created_at, updated_at, version,
  search_title, search_description, search_content, published_at, featured, slug`;

/**
 * The values of an article's insert from parameters $1..$ARTICLE_VALUES; `typed` casts each
 * (PostgreSQL cannot infer a parameter's type in a SELECT list).
 */
export function articleInsertValues(d: SqlDialect, typed: boolean): string {
  const types = [
    'varchar',
    'varchar',
    'text',
    'boolean',
    'timestamptz',
    'text',
    'text',
    'text',
    'timestamptz',
    'boolean',
    'varchar',
  ];
  const v = (n: number) => (typed ? `CAST(${d.param(n)} AS ${types[n - 1]})` : d.param(n));
  return `${v(1)}, ${v(2)}, ${v(3)}, ${v(4)}, ${v(5)}, ${v(5)}, 1, ${v(6)}, ${v(7)}, ${v(8)}, ${v(9)}, ${v(10)}, ${v(11)}`;
}

/** The one cursor a PostgreSQL connection holds while it streams the list. */
const STREAM_CURSOR = 'visible_articles_stream';

/** Every statement of the repository for one dialect. */
export function articleStatements(d: SqlDialect) {
  const p = d.param;
  /** `a` is the articles table's name in the statement (SQLite's RETURNING knows no alias). */
  const columnsOf = (a: string) => `${a}.id, ${a}.title, ${a}.description, ${a}.content,
    ${d.epochMs(`${a}.published_at`)} AS "publishedAt", ${a}.featured, ${a}.slug,
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
   * link table aggregated per article (from the id in `after`, in id order), merge-joined in id
   * order (a subquery per row re-reads the terms table for each article: 3 times slower); on
   * SQLite a subquery per row, which is an index lookup there (a join would first aggregate
   * every link, delaying the first row).
   */
  const termIdsOf = (kind: TermKind, after: string | null): { column: string; join: string } => {
    const alias = `ids_${kind}`;
    const idsOf = `${d.jsonArrayOf('t.id', 't.name')} AS ids FROM ${links(kind)} l JOIN ${terms(kind)} t ON t.id = l.${termColumn(kind)}`;
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
   * that exists, in one statement: $1..$11 as insert_article, $12..$15 as find_terms. The article
   * is inserted, and linked to the terms found, only when each id and each name referenced was
   * found (every part reads one snapshot); it answers one row per term found, with the new
   * article's id. No row: nothing was written (an unknown id, or a name to create).
   */
  const createWithKnownTerms = () => {
    const everyReferenceFound = TERM_KINDS.flatMap((kind, index) =>
      (['id', 'name'] as const).map(
        (column, second) =>
          `NOT EXISTS (${d.jsonElements(ARTICLE_VALUES + 1 + index * 2 + second, 'text')}
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
      `WITH found AS (${findTermsText(ARTICLE_VALUES + 1)}),
       inserted AS (
         INSERT INTO articles (${ARTICLE_INSERT_COLUMNS})
         SELECT ${articleInsertValues(d, true)}
          WHERE ${everyReferenceFound}
         RETURNING id
       ), ${linksOfKind}
       SELECT inserted.id AS "articleId", found.kind, found.id, found.name, found.description FROM inserted, found`,
    );
  };

  /** The published_at an update leaves (see updateArticle); the domain's applyPublicationChange. */
  const publishedAtAfter = `CASE ${p(6)} WHEN 'set' THEN ${p(12)}
      WHEN 'now' THEN CASE WHEN published_at IS NOT NULL AND published_at <= ${p(12)} THEN published_at ELSE ${p(12)} END
      ELSE published_at END`;

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
    /**
     * The data's version as lists read at $1 see it: the storage's, and the latest publishedAt at
     * or before $1 (through articles_published_at_idx), which moves when a scheduled time arrives.
     */
    dataVersion: statement(
      'data_version',
      d.dataVersion(
        `(SELECT ${d.epochMs('published_at')} FROM articles WHERE published_at <= ${p(1)} ORDER BY published_at DESC LIMIT 1)`,
      ),
    ),
    commit: statement('commit', 'COMMIT'),
    rollback: statement('rollback', 'ROLLBACK'),

    /** One article with its tags and categories as two JSON arrays: one statement, no row product. */
    findArticle: statement('find_article', `SELECT ${withTermsOf('a')} FROM articles a WHERE a.id = ${p(1)}`),
    /** The version and slug of article $1, locking its row until the transaction ends (PostgreSQL). */
    lockArticle: statement('lock_article', `SELECT version, slug FROM articles WHERE id = ${p(1)}${d.lockRow}`),
    /** Article $1 with its terms, its row locked until the transaction ends (PostgreSQL): the state a write replaces. */
    findArticleLocked: statement(
      'find_article_locked',
      `SELECT ${withTermsOf('a')} FROM articles a WHERE a.id = ${p(1)}${d.lockRow}`,
    ),
    /**
     * Keeps $4 (the article's JSON, version $3) as article $1's next revision, replaced at $2;
     * numbered after its last one (the article's row lock, or SQLite's write lock, orders them).
     */
    insertRevision: statement(
      'insert_revision',
      `INSERT INTO article_revisions (article_id, revision, replaced_at, version, article)
       SELECT ${p(1)}, COALESCE(MAX(revision), 0) + 1, ${p(2)}, ${p(3)}, ${p(4)}
         FROM article_revisions WHERE article_id = ${p(1)}`,
    ),
    /** Revision $2 of article $1: the article as it was (JSON). */
    findRevision: statement(
      'find_revision',
      `SELECT article FROM article_revisions WHERE article_id = ${p(1)} AND revision = ${p(2)}`,
    ),
    /** The highest version article $1's revisions replaced: a deleted article's last version. */
    lastRevisedVersion: statement(
      'last_revised_version',
      `SELECT MAX(version) AS version, ${d.epochMs('MAX(replaced_at)')} AS "replacedAt"
         FROM article_revisions WHERE article_id = ${p(1)}`,
    ),
    /** Article $1's revisions numbered below $2, newest first, at most $3. */
    listRevisions: statement(
      'list_revisions',
      `SELECT revision, ${d.epochMs('replaced_at')} AS "replacedAt", article FROM article_revisions
        WHERE article_id = ${p(1)} AND revision < ${p(2)} ORDER BY revision DESC LIMIT ${p(3)}`,
    ),
    /** Whether article $1 exists (one row) or not (none). */
    articleExists: statement('article_exists', `SELECT 1 AS found FROM articles WHERE id = ${p(1)}`),
    /**
     * Removes at most $2 revisions replaced at or before $1, oldest first; one row per revision
     * removed. PostgreSQL skips rows another instance's purge is removing at the same moment.
     */
    deleteExpiredRevisions: statement(
      'delete_expired_revisions',
      `DELETE FROM article_revisions WHERE (article_id, revision) IN (
         SELECT article_id, revision FROM article_revisions WHERE replaced_at <= ${p(1)}
          ORDER BY replaced_at LIMIT ${p(2)} ${d.skipsLockedRows ? 'FOR UPDATE SKIP LOCKED' : ''}
       ) RETURNING 1 AS removed`,
    ),
    /**
     * Article $1 made what a revision holds: $2 title, $3 description, $4 content, $5 published_at,
     * $6 featured, $7 slug, the folded copies $9..$11; updated_at the later of $8 and the stored
     * one; a new version. `visible` as the previous release reads it (see updateArticle).
     */
    restoreArticle: statement(
      'restore_article',
      `UPDATE articles SET title = ${p(2)}, description = ${p(3)}, content = ${p(4)},
         visible = CASE WHEN ${p(5)} IS NOT DISTINCT FROM published_at THEN visible
                        ELSE COALESCE(${p(5)} <= ${p(8)}, false) END,
         published_at = ${p(5)}, featured = ${p(6)}, slug = ${p(7)},
         updated_at = ${d.greatest}(${p(8)}, updated_at), version = version + 1,
         search_title = ${p(9)}, search_description = ${p(10)}, search_content = ${p(11)}
       WHERE id = ${p(1)}`,
    ),
    /**
     * A deleted article $1 inserted again as a revision holds it: the values of restoreArticle
     * ($8 its updated_at), created_at $12, version $13, `visible` $14.
     */
    reinsertArticle: statement(
      'reinsert_article',
      `INSERT INTO articles (id, title, description, content, visible, published_at, featured, slug,
                             created_at, updated_at, version, search_title, search_description, search_content)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(14)}, ${p(5)}, ${p(6)}, ${p(7)},
               ${p(12)}, ${p(8)}, ${p(13)}, ${p(9)}, ${p(10)}, ${p(11)})`,
    ),

    /** The article whose slug is $1. */
    findArticleBySlug: statement(
      'find_article_by_slug',
      `SELECT ${withTermsOf('a')} FROM articles a WHERE a.slug = ${p(1)}`,
    ),
    /** The id and current slug of the article whose earlier slug is $1. */
    findEarlierSlug: statement(
      'find_earlier_slug',
      `SELECT a.id, a.slug FROM article_slugs s JOIN articles a ON a.id = s.article_id WHERE s.slug = ${p(1)}`,
    ),
    /** Which of the slugs in JSON array $1 current articles have (through the unique index). */
    slugsTakenAmong: statement(
      'slugs_taken_among',
      `SELECT slug FROM articles WHERE slug IN ${d.jsonElements(1, 'text')}`,
    ),
    /**
     * Article $2's slug $1 was replaced: it leads to the article from now on (taken over from
     * another article that had it earlier, if one did); and $3, the slug it now has, leads
     * nowhere else any more.
     */
    rememberSlug: writes('remember_slug', [
      statement(
        'remember_earlier_slug',
        `INSERT INTO article_slugs (slug, article_id) VALUES (${p(1)}, ${p(2)})
           ON CONFLICT (slug) DO UPDATE SET article_id = excluded.article_id`,
      ),
      statement('forget_earlier_slug', `DELETE FROM article_slugs WHERE slug = ${p(3)}`),
    ]),
    /** Ends the redirect of an earlier slug $1 that a new article took. */
    forgetEarlierSlug: statement('forget_earlier_slug', `DELETE FROM article_slugs WHERE slug = ${p(1)}`),
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
      `INSERT INTO articles (${ARTICLE_INSERT_COLUMNS}) VALUES (${articleInsertValues(d, false)}) RETURNING id`,
    ),
    /**
     * Applies the fields whose value is not null ($2 says whether the nullable title is set),
     * moves updated_at to the later of $7 and the stored stamp, counts the version up, and
     * answers the article as written, all in one statement. With $8 (a JSON array of versions)
     * it changes the row only at one of those versions: check and write are one statement.
     * $9..$11 are the folded copies of title, description and content (searchableTextOf), set
     * with the fields they copy. Publication ($6): 'set' makes published_at $12; 'now' makes it
     * $12 unless it is published at or before $12 already; null leaves it. `visible`, kept for the
     * previous release's instances, follows published_at when, and only when, that changes (the
     * publishing migration's trigger reads a change of `visible` alone as the previous release's
     * write). $13 featured, $14 slug.
     */
    updateArticle: statement(
      'update_article',
      `UPDATE articles SET
         title = CASE WHEN ${p(2)} THEN ${p(3)} ELSE title END,
         description = COALESCE(${p(4)}, description),
         content = COALESCE(${p(5)}, content),
         published_at = ${publishedAtAfter},
         visible = CASE WHEN ${p(6)} IS NULL OR ${publishedAtAfter} IS NOT DISTINCT FROM published_at THEN visible
                        ELSE COALESCE(${publishedAtAfter} <= ${p(7)}, false) END,
         featured = COALESCE(${p(13)}, featured),
         slug = COALESCE(${p(14)}, slug),
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
