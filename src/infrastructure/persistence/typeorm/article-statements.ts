import type { TermKind } from '../../../domain';
import { ARTICLE_INSERT_COLUMNS, ARTICLE_VALUES, articleInsertValues } from './article-insert-values';
import { TABLE } from './entities';
import { listStatements } from './list-statements';
import { insertRevisionText, revisionStatements } from './revision-statements';
import { slugStatements } from './slug-statements';
import type { SqlDialect } from './sql-dialect';
import { type SqlStatement, type StatementParts, TERM_KINDS } from './sql-statement';

const terms = (kind: TermKind) => TABLE.term[kind];
const links = (kind: TermKind) => TABLE.link[kind];
const termColumn = (kind: TermKind) => TABLE.linkTermColumn[kind];

/**
 * Every statement of the repository for one dialect: the articles' and terms' here, the lists'
 * (list-statements.ts), revisions' (revision-statements.ts) and slugs' (slug-statements.ts) beside.
 */
export function articleStatements(d: SqlDialect) {
  const p = d.param;
  /** `a` is the articles table's name in the statement (SQLite's RETURNING knows no alias). */
  const columnsOf = (a: string) => `${a}.id, ${a}.title, ${a}.description, ${a}.content,
    ${d.epochMs(`${a}.published_at`)} AS "publishedAt", ${a}.featured, ${a}.slug,
    ${d.epochMs(`${a}.created_at`)} AS "createdAt", ${d.epochMs(`${a}.updated_at`)} AS "updatedAt", ${a}.version,
    ${d.authorJsonOf(`${a}.author_id`)} AS author`;
  const termsOf = (kind: TermKind, a: string) =>
    `(SELECT ${d.termsJsonArray} FROM ${links(kind)} l
        JOIN ${terms(kind)} t ON t.id = l.${termColumn(kind)} WHERE l.article_id = ${a}.id)`;
  const withTermsOf = (a: string) =>
    `${columnsOf(a)}, ${termsOf('tag', a)} AS tags, ${termsOf('category', a)} AS categories`;
  const statement = (name: string, text: string): SqlStatement => ({ name: `article_repository_${name}`, text });
  /**
   * Data-changing statements that share their parameters: one statement where the dialect can
   * combine them (one round trip), else each on its own, in order.
   */
  const writes = (name: string, steps: SqlStatement[]): readonly SqlStatement[] =>
    d.combinesWrites
      ? [statement(name, `WITH ${steps.map((step, i) => `step_${i} AS (${step.text})`).join(', ')} SELECT 1`)]
      : steps;
  const parts: StatementParts = { d, statement, articleColumns: columnsOf('a'), withTermsOf, writes };

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

  /**
   * Where the dialect combines writes (PostgreSQL), a create that links terms by id alone, in one
   * statement: $1..$12 as insert_article, then JSON arrays of tag ids ($13) and category ids
   * ($14), each id once. An id no term has fails its link's foreign key: nothing is written.
   */
  const createWithTermIds = () => {
    const linksOfKind = TERM_KINDS.map(
      (kind, index) =>
        `${kind}_links AS (INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)})
           SELECT inserted.id, ids.value FROM inserted, ${d.jsonElements(ARTICLE_VALUES + 1 + index, 'text')} AS ids)`,
    ).join(', ');
    return statement(
      'create_with_term_ids',
      `WITH inserted AS (
         INSERT INTO articles (${ARTICLE_INSERT_COLUMNS}) VALUES (${articleInsertValues(d, false)}) RETURNING id
       ), ${linksOfKind}
       SELECT id FROM inserted`,
    );
  };

  /** The published_at an update leaves (see updateArticleText); the domain's applyPublicationChange. */
  const publishedAtAfter = `CASE ${p(6)} WHEN 'set' THEN ${p(12)}
      WHEN 'now' THEN CASE WHEN published_at IS NOT NULL AND published_at <= ${p(12)} THEN published_at ELSE ${p(12)} END
      ELSE published_at END`;

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
   * write). $13 featured, $14 slug. It answers the article without its terms: the update read
   * them under the row's lock a statement before, and reads them again only after replacing them.
   */
  const updateArticleText = `UPDATE articles SET
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
     RETURNING ${columnsOf('articles')}`;
  const revisionOfUpdate = insertRevisionText(d, 1, 7, 15, 16);

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
    ...revisionStatements(parts),
    ...slugStatements(parts),
    ...listStatements(parts),
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
     * An update (updateArticleText) and the revision of the state it replaces: the update's
     * values, then $15 the version replaced and $16 its JSON, replaced at $7. One statement where
     * the dialect combines writes; the article as written is the last statement's row.
     */
    reviseAndUpdateArticle: d.combinesWrites
      ? [statement('revise_and_update_article', `WITH revision AS (${revisionOfUpdate}) ${updateArticleText}`)]
      : [statement('insert_revision_of_update', revisionOfUpdate), statement('update_article', updateArticleText)],
    deleteArticle: statement('delete_article', `DELETE FROM articles WHERE id = ${p(1)}`),

    /** The terms whose ids or names are in JSON arrays: tags $1 (ids) $2 (names), categories $3 $4. */
    findTerms: statement('find_terms', findTermsText(1)),
    /** null where the dialect cannot combine writes: there a create with references is a transaction. */
    createWithKnownTerms: d.combinesWrites ? createWithKnownTerms() : null,
    /** null where the dialect cannot combine writes (see createWithKnownTerms). */
    createWithTermIds: d.combinesWrites ? createWithTermIds() : null,
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
