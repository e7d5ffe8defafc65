import { Mutex } from 'async-mutex';
import type Database from 'better-sqlite3';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { ArticleChanges, ArticleListFilter, ArticleRepository, NewArticle } from '../../../application';
import {
  type Article,
  compareByCodePoint,
  isReferenceById,
  isReferenceByName,
  StorageUnavailableError,
  sortTermsByName,
  type Term,
  type TermKind,
  type TermReference,
  UnknownReferenceError,
} from '../../../domain';
import { newTermId } from '../term-id';
import { type ArticleSql, type KindedTerm, TERM_KINDS, type TermIds } from './article-sql';
import { PostgresArticleSql } from './postgres-article-sql';
import { POSTGRES_LIMITS } from './postgres-limits';
import { SqliteArticleSql } from './sqlite-article-sql';
import { withinDeadline } from './storage-deadline';
import { translateStorageError } from './storage-errors';

type References = Record<TermKind, readonly TermReference[]>;

/**
 * Articles with their tags and categories on PostgreSQL or SQLite. TypeORM's DataSource owns the
 * connection (pool, timeouts, migrations, logging); the hot paths run fixed SQL statements on
 * its driver (ArticleSql), without query building or entity hydration: a read, of one article
 * or of the whole list, is one statement, and so is a create without references.
 */
export class TypeOrmArticleRepository implements ArticleRepository {
  private sqlCache: ArticleSql | null = null;
  /**
   * better-sqlite3 gives TypeORM a single connection, on which concurrent transactions would
   * interleave (and reads would see uncommitted writes), so SQLite work runs one call at a time.
   * PostgreSQL runs calls concurrently on its pool.
   */
  private readonly sqliteLock: Mutex | null;

  constructor(private readonly dataSource: DataSource) {
    this.sqliteLock = dataSource.options.type === 'postgres' ? null : new Mutex();
  }

  create(article: NewArticle): Promise<Article> {
    return this.run(async (sql) => {
      const fields = { ...article.fields, createdAt: article.createdAt, updatedAt: article.createdAt };
      if (article.tags.length === 0 && article.categories.length === 0) {
        // One statement: atomic without a transaction.
        const id = await sql.insertArticle(article.fields, article.createdAt, { tag: [], category: [] });
        return { ...fields, id, tags: [], categories: [] };
      }
      return sql.transaction(async (transaction) => {
        const terms = await resolveTerms(transaction, { tag: article.tags, category: article.categories });
        const id = await transaction.insertArticle(article.fields, article.createdAt, idsOf(terms));
        return { ...fields, id, tags: sortTermsByName(terms.tag), categories: sortTermsByName(terms.category) };
      });
    });
  }

  update(id: number, changes: ArticleChanges): Promise<Article | null> {
    return this.run((sql) =>
      sql.transaction(async (transaction) => {
        // The update comes first: it locks the article row, so racing updates of one article queue up.
        const found = await transaction.updateArticle(id, changes.fields, changes.updatedAt);
        if (!found) return null;
        if (changes.tags || changes.categories) {
          const terms = await resolveTerms(transaction, {
            tag: changes.tags ?? [],
            category: changes.categories ?? [],
          });
          await transaction.replaceLinks(id, {
            tag: changes.tags && terms.tag.map((term) => term.id),
            category: changes.categories && terms.category.map((term) => term.id),
          });
        }
        // Read back in the transaction: the answer is the state this update wrote.
        return transaction.findArticle(id);
      }),
    );
  }

  findById(id: number): Promise<Article | null> {
    return this.run((sql) => sql.findArticle(id));
  }

  list(filter: ArticleListFilter): Promise<Article[]> {
    return this.run((sql) => sql.listArticles(!filter.includeInvisible));
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.run((sql) => sql.listTerms(kind));
  }

  private async run<T>(work: (sql: ArticleSql) => Promise<T>): Promise<T> {
    // After shutdown (or before start) the connection is gone: the client may retry elsewhere.
    if (!this.dataSource.isInitialized) throw new StorageUnavailableError();
    try {
      const sql = this.sql();
      // SQLite runs in-process and synchronously: there is nothing to wait for past a deadline.
      return await (this.sqliteLock
        ? this.sqliteLock.runExclusive(() => work(sql))
        : withinDeadline(work(sql), POSTGRES_LIMITS.callDeadlineMs));
    } catch (error) {
      throw translateStorageError(error);
    }
  }

  /** Built on first use: the driver's pool or connection exists once the DataSource is initialized. */
  private sql(): ArticleSql {
    if (this.sqlCache) return this.sqlCache;
    const driver = this.dataSource.driver as unknown as { master?: Pool; databaseConnection?: Database.Database };
    this.sqlCache =
      this.dataSource.options.type === 'postgres'
        ? new PostgresArticleSql(driver.master as Pool, this.dataSource.logger)
        : new SqliteArticleSql(driver.databaseConnection as Database.Database, this.dataSource.logger);
    return this.sqlCache;
  }
}

/**
 * Id references must exist; name references are found, or created when they do not exist
 * (only then is an id generated: a cuid2 costs about half a millisecond of CPU). Answers each
 * kind's terms once, in the order referenced.
 */
async function resolveTerms(sql: ArticleSql, references: References): Promise<Record<TermKind, Term[]>> {
  const ids = { tag: idsReferenced(references.tag), category: idsReferenced(references.category) };
  const names = { tag: namesReferenced(references.tag), category: namesReferenced(references.category) };
  const found = await sql.findTerms(ids, names);
  // Tags first: an unknown tag is reported before an unknown category.
  for (const kind of TERM_KINDS) {
    const missing = ids[kind].find((id) => !found.some((row) => row.kind === kind && row.id === id));
    if (missing !== undefined) throw new UnknownReferenceError(kind, missing);
  }
  const newNames = {
    tag: newTerms(
      references.tag,
      names.tag.filter((name) => !isFound(found, 'tag', name)),
    ),
    category: newTerms(
      references.category,
      names.category.filter((name) => !isFound(found, 'category', name)),
    ),
  };
  if (newNames.tag.length + newNames.category.length > 0) found.push(...(await sql.createTerms(newNames)));

  const resolved: Record<TermKind, Term[]> = { tag: [], category: [] };
  for (const kind of TERM_KINDS) {
    const rows = found.filter((row) => row.kind === kind);
    const byId = new Map(rows.map((row) => [row.id, toTerm(row)]));
    const byName = new Map(rows.map((row) => [row.name, toTerm(row)]));
    const unique = new Map<string, Term>();
    for (const reference of references[kind]) {
      const term = isReferenceByName(reference) ? byName.get(reference.name) : byId.get(reference.id);
      if (term) unique.set(term.id, term);
    }
    resolved[kind] = [...unique.values()];
  }
  return resolved;
}

function isFound(found: readonly KindedTerm[], kind: TermKind, name: string): boolean {
  return found.some((row) => row.kind === kind && row.name === name);
}

function idsReferenced(references: readonly TermReference[]): string[] {
  return references.filter(isReferenceById).map((reference) => reference.id);
}

function namesReferenced(references: readonly TermReference[]): string[] {
  return references.filter(isReferenceByName).map((reference) => reference.name);
}

/** New terms for these names; sorted, so that concurrent inserts of several names lock in one order. */
function newTerms(references: readonly TermReference[], names: readonly string[]): Term[] {
  return references
    .filter(isReferenceByName)
    .filter((reference) => names.includes(reference.name))
    .map(({ name, description }) => ({ id: newTermId(), name, description }))
    .sort((a, b) => compareByCodePoint(a.name, b.name));
}

function idsOf(terms: Record<TermKind, Term[]>): TermIds {
  return { tag: terms.tag.map((term) => term.id), category: terms.category.map((term) => term.id) };
}

function toTerm(row: KindedTerm): Term {
  return { id: row.id, name: row.name, description: row.description };
}
