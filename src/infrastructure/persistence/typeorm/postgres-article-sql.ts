import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { Article, ArticleFields, Term, TermKind } from '../../../domain';
import {
  type ArticleQueryDialect,
  type ArticleSql,
  type ArticleWithoutTerms,
  articleWithTermsQuery,
  type KindedTerm,
  type StatementLogger,
  TERM_KINDS,
  type TermIds,
} from './article-sql';
import { TABLE } from './entities';
import { type ArticleArrayRow, assembleList, type LinkArrayRow, listStatements } from './postgres-article-list';
import { type Statement, statement } from './postgres-statement';

/**
 * Timestamps travel as epoch milliseconds (float8, exact for millisecond values): a number
 * becomes a Date far faster than node-postgres parses timestamptz text, which took about 5 % of
 * the CPU of GET /article. Terms arrive as json, which node-postgres parses with JSON.parse.
 */
const DIALECT: ArticleQueryDialect = {
  timestamp: (column) => `round(extract(epoch FROM ${column}) * 1000)::float8`,
  termsArray: `coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'description', t.description)
                 ORDER BY t.name), '[]')`,
};

/** An article row as it arrives, timestamps still in milliseconds. */
interface StoredArticle extends Omit<ArticleWithoutTerms, 'createdAt' | 'updatedAt'> {
  createdAt: number | Date;
  updatedAt: number | Date;
}

/** Turns the milliseconds into Dates in place: the rows are this call's own, and a list has hundreds. */
function withDates<T extends StoredArticle>(rows: T[]): (T & ArticleWithoutTerms)[] {
  for (const row of rows) {
    row.createdAt = new Date(row.createdAt);
    row.updatedAt = new Date(row.updatedAt);
  }
  return rows as (T & ArticleWithoutTerms)[];
}

const terms = (kind: TermKind) => TABLE.term[kind];
const links = (kind: TermKind) => TABLE.link[kind];
const termColumn = (kind: TermKind) => TABLE.linkTermColumn[kind];

const SQL = {
  findArticle: statement('find_article', articleWithTermsQuery(DIALECT, '$1')),
  listVisible: listStatements(DIALECT, true),
  listAll: listStatements(DIALECT, false),
  /** The article and the links of both kinds in one statement. */
  insertArticle: statement(
    'insert_article',
    `WITH article AS (
       INSERT INTO articles (title, description, content, visible, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING id)
     ${TERM_KINDS.map(
       (kind, index) =>
         `, ${kind}_links AS (INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)})
              SELECT article.id, unnest($${6 + index}::varchar[]) FROM article)`,
     ).join('\n')}
     SELECT id FROM article`,
  ),
  /**
   * Inserts the names (ON CONFLICT DO NOTHING waits for a concurrent insert of the same name,
   * then skips it) and answers the inserted rows plus those that existed when the statement
   * began. A name that a concurrent transaction committed meanwhile is in neither: the caller
   * reads it again. Names arrive sorted, so concurrent inserts lock in one order.
   */
  createTerms: statement(
    'create_terms',
    `WITH ${TERM_KINDS.map(
      (kind, index) =>
        `inserted_${kind} AS (
           INSERT INTO ${terms(kind)} (id, name, description)
           SELECT * FROM unnest($${1 + index * 3}::varchar[], $${2 + index * 3}::varchar[], $${3 + index * 3}::text[])
           ON CONFLICT DO NOTHING RETURNING id, name, description)`,
    ).join(', ')}
     ${TERM_KINDS.map(
       (kind, index) =>
         `SELECT '${kind}' AS kind, id, name, description FROM inserted_${kind}
          UNION ALL
          SELECT '${kind}', id, name, description FROM ${terms(kind)} WHERE name = ANY($${2 + index * 3}::varchar[])`,
     ).join(' UNION ALL ')}`,
  ),
  findTerms: statement(
    'find_terms',
    TERM_KINDS.map(
      (kind, index) =>
        `SELECT '${kind}' AS kind, id, name, description FROM ${terms(kind)}
         WHERE id = ANY($${1 + index * 2}::varchar[]) OR name = ANY($${2 + index * 2}::varchar[])`,
    ).join(' UNION ALL '),
  ),
  /** Each field changes only when its flag is true: one prepared statement for every update. */
  updateArticle: statement(
    'update_article',
    `UPDATE articles SET
       title = CASE WHEN $2::boolean THEN $3 ELSE title END,
       description = COALESCE($4, description),
       content = COALESCE($5, content),
       visible = COALESCE($6, visible),
       updated_at = GREATEST($7, updated_at)
     WHERE id = $1 RETURNING id`,
  ),
  /**
   * For each kind being replaced ($2 / $4): removes the links not in the new set and adds the new
   * ones (the two touch different rows, so they can share one statement).
   */
  replaceLinks: statement(
    'replace_links',
    `WITH ${TERM_KINDS.map(
      (kind, index) =>
        `removed_${kind} AS (DELETE FROM ${links(kind)} WHERE $${2 + index * 2}::boolean AND article_id = $1
                              AND ${termColumn(kind)} <> ALL($${3 + index * 2}::varchar[])),
         added_${kind} AS (INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)})
                            SELECT $1, unnest($${3 + index * 2}::varchar[]) ON CONFLICT DO NOTHING)`,
    ).join(', ')}
     SELECT 1`,
  ),
  listTags: statement('list_tags', 'SELECT id, name, description FROM tags ORDER BY name'),
  listCategories: statement('list_categories', 'SELECT id, name, description FROM categories ORDER BY name'),
};

/**
 * ArticleSql on PostgreSQL, on the pool of TypeORM's DataSource, through node-postgres prepared
 * statements: no query building, no entity hydration, and PostgreSQL parses and plans each
 * statement once per connection.
 */
export class PostgresArticleSql implements ArticleSql {
  constructor(
    private readonly pool: Pool | PoolClient,
    private readonly logger: StatementLogger,
  ) {}

  async transaction<T>(work: (sql: ArticleSql) => Promise<T>): Promise<T> {
    const client = await (this.pool as Pool).connect();
    const sql = new PostgresArticleSql(client, this.logger);
    let broken: Error | undefined;
    try {
      await sql.plain('BEGIN');
      const result = await work(sql);
      await sql.plain('COMMIT');
      return result;
    } catch (error) {
      await sql.plain('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      // A connection that cannot even roll back is broken: the pool closes it instead of reusing it.
      client.release(broken);
    }
  }

  async findArticle(id: number): Promise<Article | null> {
    const rows = await this.run<StoredArticle & Pick<Article, 'tags' | 'categories'>>(SQL.findArticle, [id]);
    return withDates(rows)[0] ?? null;
  }

  async listArticles(onlyVisible: boolean): Promise<Article[]> {
    const [articles, links] = onlyVisible ? SQL.listVisible : SQL.listAll;
    const rows = await this.run<ArticleArrayRow>(articles, []);
    if (rows.length === 0) return [];
    return assembleList(rows, await this.run<LinkArrayRow>(links, []));
  }

  async insertArticle(fields: ArticleFields, createdAt: Date, links: TermIds): Promise<number> {
    const [row] = await this.run<{ id: number }>(SQL.insertArticle, [
      fields.title,
      fields.description,
      fields.content,
      fields.visible,
      createdAt,
      links.tag,
      links.category,
    ]);
    return (row as { id: number }).id;
  }

  findTerms(ids: TermIds, names: Record<TermKind, readonly string[]>): Promise<KindedTerm[]> {
    return this.run<KindedTerm>(
      SQL.findTerms,
      TERM_KINDS.flatMap((kind) => [ids[kind], names[kind]]),
    );
  }

  async createTerms(named: Record<TermKind, readonly Term[]>): Promise<KindedTerm[]> {
    const found = await this.run<KindedTerm>(
      SQL.createTerms,
      TERM_KINDS.flatMap((kind) => [
        named[kind].map((term) => term.id),
        named[kind].map((term) => term.name),
        named[kind].map((term) => term.description),
      ]),
    );
    const complete = TERM_KINDS.every((kind) =>
      named[kind].every((term) => found.some((row) => row.kind === kind && row.name === term.name)),
    );
    if (complete) return found;
    // Rare: another transaction committed one of the names while this statement ran; read again.
    const none = { tag: [], category: [] };
    return this.findTerms(none, { tag: named.tag.map((t) => t.name), category: named.category.map((t) => t.name) });
  }

  async updateArticle(id: number, fields: Partial<ArticleFields>, updatedAt: Date): Promise<boolean> {
    const rows = await this.run(SQL.updateArticle, [
      id,
      fields.title !== undefined,
      fields.title ?? null,
      fields.description ?? null,
      fields.content ?? null,
      fields.visible ?? null,
      updatedAt,
    ]);
    return rows.length > 0;
  }

  async replaceLinks(articleId: number, links: Partial<TermIds>): Promise<void> {
    await this.run(SQL.replaceLinks, [
      articleId,
      ...TERM_KINDS.flatMap((kind) => [links[kind] !== undefined, links[kind] ?? []]),
    ]);
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.run<Term>(kind === 'tag' ? SQL.listTags : SQL.listCategories, []);
  }

  private async run<R extends QueryResultRow | unknown[]>(sql: Statement, values: unknown[]): Promise<R[]> {
    this.logger.logQuery(sql.text, values);
    return (await this.pool.query({ ...sql, values })).rows as R[];
  }

  private async plain(text: string): Promise<void> {
    this.logger.logQuery(text);
    await this.pool.query(text);
  }
}
