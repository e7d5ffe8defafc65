import type { ArticleFields, Term, TermKind } from '../../../domain';
import { TABLE } from './entities';

/**
 * The statements of the article repository, one implementation per dialect. Each method is a
 * fixed number of statements whatever the number of articles or references, so a request sends
 * a constant number of queries. Rows come back with domain types (Date, boolean).
 */
export interface ArticleSql {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: ArticleSql) => Promise<T>): Promise<T>;
  findArticle(id: number): Promise<ArticleRow | null>;
  listArticles(onlyVisible: boolean): Promise<ArticleRow[]>;
  /** Links of one article, or of every (visible) article, ordered by term name (code points). */
  findLinks(scope: LinkScope): Promise<LinkRow[]>;
  /** Inserts the article and its links; answers its id. */
  insertArticle(fields: ArticleFields, createdAt: Date, links: TermIds): Promise<number>;
  /** The terms with these ids or names. */
  findTerms(ids: TermIds, names: Record<TermKind, readonly string[]>): Promise<KindedTerm[]>;
  /**
   * Creates the terms whose names do not exist yet and answers every one of these names' terms.
   * A name that a concurrent transaction creates meanwhile is waited for and answered.
   */
  createTerms(named: Record<TermKind, readonly Term[]>): Promise<KindedTerm[]>;
  /** Answers null, and changes nothing, when no article has this id. */
  updateArticle(id: number, fields: Partial<ArticleFields>, updatedAt: Date): Promise<ArticleRow | null>;
  /** Replaces the links of the kinds given; a kind absent keeps its links. */
  replaceLinks(articleId: number, links: Partial<TermIds>): Promise<void>;
  listTerms(kind: TermKind): Promise<Term[]>;
}

export type TermIds = Record<TermKind, readonly string[]>;
export type LinkScope = { articleId: number } | { onlyVisible: boolean };

export interface ArticleRow extends ArticleFields {
  id: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface KindedTerm extends Term {
  kind: TermKind;
}

export interface LinkRow extends KindedTerm {
  articleId: number;
}

/** Receives every statement sent, as TypeORM's own query runners report theirs. */
export interface StatementLogger {
  logQuery(query: string, parameters?: unknown[]): void;
}

export const TERM_KINDS: readonly TermKind[] = ['tag', 'category'];

/**
 * Tags and categories of the articles `filter` selects (one condition per half, on `l`), in one
 * UNION: no query per article and no tags × categories product. Names sort by code point:
 * "C" collation on PostgreSQL, BINARY on SQLite.
 */
export function linksQuery(filter: (kind: TermKind) => string): string {
  return `${TERM_KINDS.map(
    (kind) =>
      `SELECT '${kind}' AS kind, l.article_id AS "articleId", t.id, t.name, t.description
         FROM ${TABLE.link[kind]} l JOIN ${TABLE.term[kind]} t ON t.id = l.${TABLE.linkTermColumn[kind]}
         ${filter(kind)}`,
  ).join(' UNION ALL ')} ORDER BY name`;
}
