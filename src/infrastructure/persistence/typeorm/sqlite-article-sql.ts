import type Database from 'better-sqlite3';
import type { Article, ArticleFields, Term, TermKind } from '../../../domain';
import {
  type ArticleQueryDialect,
  type ArticleSql,
  type ArticleWithoutTerms,
  articlesQuery,
  articleWithTermsQuery,
  attachLinks,
  type KindedTerm,
  type LinkRow,
  linksQuery,
  type StatementLogger,
  TERM_KINDS,
  type TermIds,
} from './article-sql';
import { TABLE } from './entities';

/**
 * How an article row arrives from SQLite: booleans as 0/1, timestamps as UTC text with
 * milliseconds, terms as JSON text.
 */
interface StoredArticle extends Omit<ArticleWithoutTerms, 'visible' | 'createdAt' | 'updatedAt'> {
  visible: number;
  createdAt: string;
  updatedAt: string;
}

interface StoredArticleWithTerms extends StoredArticle {
  tags: string;
  categories: string;
}

const DIALECT: ArticleQueryDialect = {
  timestamp: (column) => column,
  termsArray: `json_group_array(json_object('id', t.id, 'name', t.name, 'description', t.description) ORDER BY t.name)`,
};

const terms = (kind: TermKind) => TABLE.term[kind];
const links = (kind: TermKind) => TABLE.link[kind];
const termColumn = (kind: TermKind) => TABLE.linkTermColumn[kind];
/** Lists travel as one JSON array parameter, so a statement's text does not depend on their length. */
const inList = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;

const SQL = {
  findArticle: articleWithTermsQuery(DIALECT, '?'),
  listVisible: articlesQuery(DIALECT, true),
  listAll: articlesQuery(DIALECT, false),
  linksOfVisible: linksQuery(true),
  linksOfAll: linksQuery(false),
  insertArticle: `INSERT INTO articles (title, description, content, visible, created_at, updated_at)
                  VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  insertLinks: (kind: TermKind) =>
    `INSERT INTO ${links(kind)} (article_id, ${termColumn(kind)}) SELECT ?, value FROM json_each(?)`,
  deleteLinks: (kind: TermKind) => `DELETE FROM ${links(kind)} WHERE article_id = ?`,
  /** `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join. */
  insertNamedTerms: (kind: TermKind) =>
    `INSERT INTO ${terms(kind)} (id, name, description)
     SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
  findTerms: TERM_KINDS.map(
    (kind) => `SELECT '${kind}' AS kind, id, name, description FROM ${terms(kind)}
               WHERE ${inList('id')} OR ${inList('name')}`,
  ).join(' UNION ALL '),
  updateArticle: `UPDATE articles SET
                    title = CASE WHEN ? THEN ? ELSE title END,
                    description = COALESCE(?, description),
                    content = COALESCE(?, content),
                    visible = COALESCE(?, visible),
                    updated_at = MAX(?, updated_at)
                  WHERE id = ?`,
  listTerms: (kind: TermKind) => `SELECT id, name, description FROM ${terms(kind)} ORDER BY name`,
};

/**
 * ArticleSql on SQLite, on the better-sqlite3 connection of TypeORM's DataSource, with each
 * statement prepared once. better-sqlite3 is synchronous and has one connection: the repository
 * runs one call at a time, so a transaction here never interleaves with another call.
 */
export class SqliteArticleSql implements ArticleSql {
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly logger: StatementLogger,
  ) {}

  async transaction<T>(work: (sql: ArticleSql) => Promise<T>): Promise<T> {
    this.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this);
      this.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.exec('ROLLBACK');
      throw error;
    }
  }

  async findArticle(id: number): Promise<Article | null> {
    const row = this.statement(SQL.findArticle, [id]).get(id) as StoredArticleWithTerms | undefined;
    return row ? { ...toArticle(row), tags: JSON.parse(row.tags), categories: JSON.parse(row.categories) } : null;
  }

  async listArticles(onlyVisible: boolean): Promise<Article[]> {
    const rows = (this.statement(onlyVisible ? SQL.listVisible : SQL.listAll, []).all() as StoredArticle[]).map(
      toArticle,
    );
    if (rows.length === 0) return [];
    const links = this.statement(onlyVisible ? SQL.linksOfVisible : SQL.linksOfAll, []).all() as LinkRow[];
    return attachLinks(rows, links);
  }

  async insertArticle(fields: ArticleFields, createdAt: Date, ids: TermIds): Promise<number> {
    const stamp = toStoredDate(createdAt);
    const values = [fields.title, fields.description, fields.content, fields.visible ? 1 : 0, stamp, stamp];
    const { id } = this.statement(SQL.insertArticle, values).get(...values) as { id: number };
    for (const kind of TERM_KINDS) this.insertLinks(kind, id, ids[kind]);
    return id;
  }

  async findTerms(ids: TermIds, names: Record<TermKind, readonly string[]>): Promise<KindedTerm[]> {
    const values = TERM_KINDS.flatMap((kind) => [JSON.stringify(ids[kind]), JSON.stringify(names[kind])]);
    return this.statement(SQL.findTerms, values).all(...values) as KindedTerm[];
  }

  async createTerms(named: Record<TermKind, readonly Term[]>): Promise<KindedTerm[]> {
    for (const kind of TERM_KINDS) {
      if (named[kind].length === 0) continue;
      const rows = JSON.stringify(named[kind].map((term) => [term.id, term.name, term.description]));
      this.statement(SQL.insertNamedTerms(kind), [rows]).run(rows);
    }
    return this.findTerms(
      { tag: [], category: [] },
      { tag: named.tag.map((term) => term.name), category: named.category.map((term) => term.name) },
    );
  }

  async updateArticle(id: number, fields: Partial<ArticleFields>, updatedAt: Date): Promise<boolean> {
    const visible = fields.visible === undefined ? null : fields.visible ? 1 : 0;
    const values = [
      fields.title !== undefined ? 1 : 0,
      fields.title ?? null,
      fields.description ?? null,
      fields.content ?? null,
      visible,
      toStoredDate(updatedAt),
      id,
    ];
    return this.statement(SQL.updateArticle, values).run(...values).changes > 0;
  }

  async replaceLinks(articleId: number, ids: Partial<TermIds>): Promise<void> {
    for (const kind of TERM_KINDS) {
      const replacement = ids[kind];
      if (replacement === undefined) continue;
      this.statement(SQL.deleteLinks(kind), [articleId]).run(articleId);
      this.insertLinks(kind, articleId, replacement);
    }
  }

  async listTerms(kind: TermKind): Promise<Term[]> {
    return this.statement(SQL.listTerms(kind), []).all() as Term[];
  }

  private insertLinks(kind: TermKind, articleId: number, termIds: readonly string[]): void {
    if (termIds.length === 0) return;
    const json = JSON.stringify(termIds);
    this.statement(SQL.insertLinks(kind), [articleId, json]).run(articleId, json);
  }

  /** The prepared statement for `sql`, logged with the values it is about to run with. */
  private statement(sql: string, values: unknown[]): Database.Statement {
    this.logger.logQuery(sql, values);
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.prepared.set(sql, prepared);
    }
    return prepared;
  }

  private exec(sql: string): void {
    this.logger.logQuery(sql);
    this.db.exec(sql);
  }
}

/** The format TypeORM has always written: `2026-01-02 03:04:05.678`, in UTC. */
function toStoredDate(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

function fromStoredDate(stored: string): Date {
  return new Date(`${stored.replace(' ', 'T')}Z`);
}

function toArticle(row: StoredArticle): ArticleWithoutTerms {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    visible: row.visible === 1,
    createdAt: fromStoredDate(row.createdAt),
    updatedAt: fromStoredDate(row.updatedAt),
  };
}
