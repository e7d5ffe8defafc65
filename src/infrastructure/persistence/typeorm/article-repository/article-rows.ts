import type { NewArticle } from '../../../../application';
import { type Article, type Author, sortTermsByName, type Term, type TermKind } from '../../../../domain';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import type { SqlStatement } from '../sql-statement';

/** An article row as both dialects answer it: timestamps in epoch milliseconds. */
export interface ArticleRow {
  id: number;
  title: string | null;
  description: string;
  content: string;
  /** null: a draft. */
  publishedAt: number | null;
  featured: boolean | number;
  slug: string;
  createdAt: number;
  updatedAt: number;
  version: number;
  /** `{id, name, slug}` as JSON (text on SQLite, parsed on PostgreSQL); null without an author. */
  author: unknown;
  /** The statements that read an article whole (find_article and its kin): its terms as a JSON array. */
  tags?: unknown;
  categories?: unknown;
}

/** A row of a stream statement: the article, and its term ids in any order (JSON arrays; PostgreSQL: null for none). */
export interface StreamRow extends ArticleRow {
  tagIds: unknown;
  categoryIds: unknown;
}

/**
 * A links row: per article and kind the term ids in name order (`articleId`, `ids`), or one
 * linked term (`id`, `name`, `description`); see linksOfArticles.
 */
export interface LinkRow {
  kind: TermKind;
  articleId: number | null;
  ids: unknown;
  id: string | null;
  name: string | null;
  description: string | null;
}

/** A row of find_terms: a term and which kind it is. */
export interface TermRow extends Term {
  kind: TermKind;
}

/** The row insert_article answers. */
export interface InsertedRow {
  id: number;
}

/** The row of data_version. */
export interface VersionRow {
  version: string;
}

/**
 * The one row of a statement that always answers one (INSERT … RETURNING, data_version, an
 * article read in the transaction that holds its row); none is a defect, not a missing article.
 */
export async function queryOne<Row>(
  connection: Pick<SqlConnection, 'query'>,
  statement: SqlStatement,
  values: readonly unknown[],
): Promise<Row> {
  const [row] = await connection.query<Row>(statement, values);
  if (row === undefined) throw new Error(`${statement.name} answered no row`);
  return row;
}

export const NO_TERMS: Record<TermKind, Term[]> = { tag: [], category: [] };

/** The article of a row, built as one object literal: the whole list builds 100,000 of them. */
export function articleOf(
  row: ArticleRow,
  tags: readonly Term[],
  categories: readonly Term[],
  author: Author | null = authorOfRow(row.author),
): Article {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    publishedAt: row.publishedAt === null ? null : new Date(row.publishedAt),
    featured: row.featured === true || row.featured === 1,
    slug: row.slug,
    tags,
    categories,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    version: row.version,
    author,
  };
}

/** The author column of a row: JSON text (SQLite) or parsed already (PostgreSQL's driver). */
export function authorOfRow(value: unknown): Author | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Author;
}

/** The article of a row that carries its terms as JSON (find_article and its kin). */
export function articleWithTermsOf(row: ArticleRow, dialect: SqlDialect): Article {
  return articleOf(row, dialect.decodeJson<Term[]>(row.tags), dialect.decodeJson<Term[]>(row.categories));
}

/** Each article with its terms; a term linked by several articles is one shared object. */
export function attachLinks(rows: readonly ArticleRow[], links: readonly LinkRow[], dialect: SqlDialect): Article[] {
  const termsById: Record<TermKind, Map<string, Term>> = { tag: new Map(), category: new Map() };
  for (const link of links) {
    if (link.id !== null)
      termsById[link.kind].set(link.id, { id: link.id, name: link.name as string, description: link.description });
  }
  const linked: Record<TermKind, Map<number, Term[]>> = { tag: new Map(), category: new Map() };
  for (const link of links) {
    if (link.articleId === null) continue;
    const known = termsById[link.kind];
    const terms: Term[] = [];
    for (const id of dialect.decodeJson<string[]>(link.ids)) {
      const term = known.get(id);
      if (term) terms.push(term);
    }
    linked[link.kind].set(link.articleId, terms);
  }
  return rows.map((row) => articleOf(row, linked.tag.get(row.id) ?? [], linked.category.get(row.id) ?? []));
}

/**
 * The article as a create stores it (with the slug it asked for): version 1, updatedAt equal to
 * createdAt; `author` the one the create carries.
 */
export function createdArticle(
  id: number,
  article: NewArticle,
  terms: Record<TermKind, Term[]>,
  author: Author | null,
): Article {
  return {
    id,
    ...article.fields,
    publishedAt: article.publishedAt,
    slug: article.slug.slug,
    tags: sortTermsByName(terms.tag),
    categories: sortTermsByName(terms.category),
    createdAt: article.createdAt,
    updatedAt: article.createdAt,
    version: 1,
    author,
  };
}

export function hasReferences(article: NewArticle): boolean {
  return article.tags.length > 0 || article.categories.length > 0;
}

export function termOf(row: TermRow): Term {
  return { id: row.id, name: row.name, description: row.description };
}

/** A JSON array of the terms' ids: the value insert_links and replace_links take per kind. */
export const termIdsJson = (terms: readonly Term[]) => JSON.stringify(terms.map((term) => term.id));
