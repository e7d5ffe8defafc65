import type { Article, ArticleFields, Term, TermKind } from '../../../domain';
import { TABLE } from './entities';

/**
 * The statements of the article repository, one implementation per dialect. Each method sends a
 * fixed number of statements whatever the number of articles or references, so a request sends
 * a constant number of queries. Results come back as domain values.
 */
export interface ArticleSql {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: ArticleSql) => Promise<T>): Promise<T>;
  /** One article with its tags and categories, in one statement. */
  findArticle(id: number): Promise<Article | null>;
  /**
   * Every (visible) article by id, each with its tags and categories: two statements, the
   * articles, then all their links and terms. (One statement aggregating each article's terms
   * as JSON cost PostgreSQL five times the CPU for a list of 900, on the service's two cores.)
   */
  listArticles(onlyVisible: boolean): Promise<Article[]>;
  /** Inserts the article and its links; answers its id. */
  insertArticle(fields: ArticleFields, createdAt: Date, links: TermIds): Promise<number>;
  /** The terms with these ids or names. */
  findTerms(ids: TermIds, names: Record<TermKind, readonly string[]>): Promise<KindedTerm[]>;
  /**
   * Creates the terms whose names do not exist yet and answers every one of these names' terms.
   * A name that a concurrent transaction creates meanwhile is waited for and answered.
   */
  createTerms(named: Record<TermKind, readonly Term[]>): Promise<KindedTerm[]>;
  /**
   * Answers false, and changes nothing, when no article has this id. updated_at becomes the
   * later of `updatedAt` and the stored stamp, so it never moves back (see the port).
   */
  updateArticle(id: number, fields: Partial<ArticleFields>, updatedAt: Date): Promise<boolean>;
  /** Replaces the links of the kinds given; a kind absent keeps its links. */
  replaceLinks(articleId: number, links: Partial<TermIds>): Promise<void>;
  listTerms(kind: TermKind): Promise<Term[]>;
}

export type TermIds = Record<TermKind, readonly string[]>;

export interface KindedTerm extends Term {
  kind: TermKind;
}

/** Receives every statement sent, as TypeORM's own query runners report theirs. */
export interface StatementLogger {
  logQuery(query: string, parameters?: unknown[]): void;
}

export const TERM_KINDS: readonly TermKind[] = ['tag', 'category'];

export interface ArticleQueryDialect {
  /** How the dialect selects a timestamp column. */
  timestamp(column: string): string;
  /** An aggregate of `{id, name, description}` objects of `t`, ordered by name, `[]` when none. */
  termsArray: string;
}

const articleColumns = (dialect: ArticleQueryDialect) =>
  `a.id, a.title, a.description, a.content, a.visible,
   ${dialect.timestamp('a.created_at')} AS "createdAt", ${dialect.timestamp('a.updated_at')} AS "updatedAt"`;

/**
 * One article with its tags and categories as two JSON arrays built by the database: one
 * statement, and no tags × categories row product. Names sort by code point ("C" collation on
 * PostgreSQL, BINARY on SQLite).
 */
export function articleWithTermsQuery(dialect: ArticleQueryDialect, idParameter: string): string {
  const terms = (kind: TermKind) =>
    `(SELECT ${dialect.termsArray} FROM ${TABLE.link[kind]} l
        JOIN ${TABLE.term[kind]} t ON t.id = l.${TABLE.linkTermColumn[kind]} WHERE l.article_id = a.id)`;
  return `SELECT ${articleColumns(dialect)}, ${terms('tag')} AS tags, ${terms('category')} AS categories
            FROM articles a WHERE a.id = ${idParameter}`;
}

/** Articles without their terms, by id. */
export function articlesQuery(dialect: ArticleQueryDialect, onlyVisible: boolean): string {
  return `SELECT ${articleColumns(dialect)} FROM articles a ${onlyVisible ? 'WHERE a.visible' : ''} ORDER BY a.id`;
}

/** The links of every (visible) article with their terms, tags and categories in one UNION, by name. */
export function linksQuery(onlyVisible: boolean): string {
  const filter = onlyVisible ? 'WHERE l.article_id IN (SELECT id FROM articles WHERE visible)' : '';
  return `${TERM_KINDS.map(
    (kind) =>
      `SELECT '${kind}' AS kind, l.article_id AS "articleId", t.id, t.name, t.description
         FROM ${TABLE.link[kind]} l JOIN ${TABLE.term[kind]} t ON t.id = l.${TABLE.linkTermColumn[kind]} ${filter}`,
  ).join(' UNION ALL ')} ORDER BY name`;
}

export interface LinkRow extends KindedTerm {
  articleId: number;
}

/** An article as it leaves the database before its terms are attached. */
export type ArticleWithoutTerms = Omit<Article, 'tags' | 'categories'>;

/** Each article with the terms of its links, in the links' order (by name). */
export function attachLinks(rows: readonly ArticleWithoutTerms[], links: readonly LinkRow[]): Article[] {
  const byId = new Map<number, Record<TermKind, Term[]>>();
  const articles = rows.map((row): Article => {
    const terms: Record<TermKind, Term[]> = { tag: [], category: [] };
    byId.set(row.id, terms);
    // A new object with every field: adding properties to the driver's row objects measured slower.
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      content: row.content,
      visible: row.visible,
      tags: terms.tag,
      categories: terms.category,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  });
  for (const link of links) {
    byId.get(link.articleId)?.[link.kind].push({ id: link.id, name: link.name, description: link.description });
  }
  return articles;
}
