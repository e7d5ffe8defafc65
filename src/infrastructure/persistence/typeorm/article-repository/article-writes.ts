import type { ArticleChanges, ExpectedVersions, NewArticle, WriteGuard } from '../../../../application';
import { type Article, type Author, SlugTakenError, searchableTextOf } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { isForeignKeyViolation, isSlugConflict } from '../storage-errors';
import {
  type ArticleRow,
  articleOf,
  articleWithTermsOf,
  createdArticle,
  hasReferences,
  type InsertedRow,
  NO_TERMS,
  queryOne,
  type TermRow,
  termIdsJson,
} from './article-rows';
import { createWithFreeSlug } from './free-slug';
import type { KnownTerms } from './known-terms';
import type { OutboxRecording } from './outbox-recording';
import { keepRevision, readToReplace } from './revision-keeping';
import { type SqlSessions, WRITE } from './sql-sessions';
import { storedArticleJson } from './stored-article-json';
import {
  findTermsValues,
  resolveTerms,
  splitReferences,
  type TermReferences,
  termsReferenced,
} from './term-resolution';
import { inTransaction, runInOrder } from './transaction';

/**
 * Creates, updates and deletes of articles on the primary. A write that is one statement runs
 * without a transaction (it is atomic alone): so does a create whose terms all exist, where the
 * dialect combines writes (linked by id when this process knows them all: known-terms.ts).
 * Otherwise one with term references, or an update of the slug, resolves them, writes and links
 * inside one transaction. A create's slug is settled by the unique index (free-slug.ts). While
 * webhooks record events, every write stores them in its transaction (outbox-recording.ts): a
 * create is then always a transaction.
 */
export class ArticleWrites {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
    private readonly outbox: OutboxRecording,
    private readonly knownTerms: KnownTerms,
  ) {}

  create(article: NewArticle): Promise<Article> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const created = await createWithFreeSlug(connection, this.sql, article, (attempt) =>
        this.createOn(connection, attempt, article.author),
      );
      if (this.sql.createWithTermIds) this.knownTerms.remember({ tag: created.tags, category: created.categories });
      return created;
    });
  }

  /** One try of a create, with the slug it carries: atomic, so a slug conflict leaves nothing written. */
  private async createOn(connection: SqlConnection, article: NewArticle, author: Author | null): Promise<Article> {
    const values = insertArticleValues(article, this.dialect);
    const references = { tag: article.tags, category: article.categories };
    // Events recorded go in the create's transaction: no create of one statement alone then.
    if (!this.outbox.recording()) {
      if (!hasReferences(article)) {
        // One statement: atomic without a transaction.
        const id = await insertArticle(connection, this.sql, values);
        return createdArticle(id, article, NO_TERMS, author);
      }
      // One statement when every referenced term exists; else the transaction resolves them.
      const attempt = { connection, article, references, values, author };
      const created = (await this.createWithTermsKnownHere(attempt)) ?? (await this.createWithKnownTerms(attempt));
      if (created) return created;
    }
    return inTransaction(connection, this.sql, async () => {
      const linked = hasReferences(article);
      const terms = linked ? await resolveTerms(connection, this.sql, references) : NO_TERMS;
      const id = await insertArticle(connection, this.sql, values);
      if (linked) {
        await runInOrder(connection, this.sql.insertLinks, [id, termIdsJson(terms.tag), termIdsJson(terms.category)]);
      }
      const created = createdArticle(id, article, terms, author);
      await this.outbox.recordCreate(connection, created);
      return created;
    });
  }

  async update(
    id: number,
    changes: ArticleChanges,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null> {
    try {
      return await this.updateOnce(id, changes, expected, guard);
    } catch (error) {
      if (changes.slug !== undefined && isSlugConflict(error)) throw new SlugTakenError(changes.slug);
      throw error;
    }
  }

  /**
   * One transaction: the article as it is, read under its row's lock (PostgreSQL; SQLite's BEGIN
   * excludes other writers), becomes its next revision with the update (one statement where the
   * dialect combines writes); then the slug it leaves, the links, and the update's events.
   */
  private updateOnce(
    id: number,
    changes: ArticleChanges,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null> {
    const values = this.updateValues(id, changes, expected);
    return this.sessions.inSession(WRITE, (connection) =>
      inTransaction(connection, this.sql, async () => {
        const at = changes.updatedAt;
        const before = await readToReplace(connection, this.sql, this.dialect, { id, expected, guard });
        if (!before) return null;
        const after = await this.updateLocked(connection, before, changes, [
          ...values,
          before.version,
          storedArticleJson(before),
        ]);
        await this.outbox.recordReplacement(connection, { before, after, at });
        return after;
      }),
    );
  }

  /** The update of an article read locked (`before`), with its revision, its slug and its links: the article it leaves. */
  private async updateLocked(
    connection: SqlConnection,
    before: Article,
    changes: ArticleChanges,
    values: unknown[],
  ): Promise<Article> {
    const { id } = before;
    const [row] = await runInOrder<ArticleRow>(connection, this.sql.reviseAndUpdateArticle, values);
    if (!row) throw new Error(`the update changed no row of article ${id}, locked and at the expected version`);
    if (before.slug !== row.slug) {
      // Its old slug leads to it from now on; its new one leads nowhere else any more.
      await runInOrder(connection, this.sql.rememberSlug, [before.slug, id, row.slug]);
    }
    // Its links are those read under the row's lock unless this update replaces them.
    if (!changes.tags && !changes.categories) return articleOf(row, before.tags, before.categories);
    const terms = await resolveTerms(connection, this.sql, {
      tag: changes.tags ?? [],
      category: changes.categories ?? [],
    });
    await runInOrder(connection, this.sql.replaceLinks, [
      id,
      termIdsJson(terms.tag),
      termIdsJson(terms.category),
      this.dialect.encodeBoolean(changes.tags !== undefined),
      this.dialect.encodeBoolean(changes.categories !== undefined),
    ]);
    // Read back in the transaction: the answer is the state this update wrote.
    const read = await queryOne<ArticleRow>(connection, this.sql.findArticle, [id]);
    return articleWithTermsOf(read, this.dialect);
  }

  delete(id: number, at: Date, expected: ExpectedVersions | undefined, guard: WriteGuard): Promise<Article | null> {
    return this.sessions.inSession(WRITE, (connection) =>
      inTransaction(connection, this.sql, async () => {
        const before = await keepRevision(connection, this.sql, this.dialect, { id, at, expected, guard });
        if (!before) return null;
        // The links and earlier slugs go with the article (ON DELETE CASCADE); its tags, categories
        // and revisions stay. Its slug is free again: a redirect left under it ends too.
        await connection.query(this.sql.deleteArticle, [id]);
        await connection.query(this.sql.forgetEarlierSlug, [before.slug]);
        await this.outbox.recordReplacement(connection, { before, after: null, at });
        return before;
      }),
    );
  }

  /**
   * The create in one statement that links terms by id, when this process knows every term it
   * references (known-terms.ts). Null when it wrote nothing: a term is not known here, or the
   * database lacks one (restored to an earlier point), which forgets every term known here.
   */
  private async createWithTermsKnownHere(attempt: OneStatementCreate): Promise<Article | null> {
    if (!this.sql.createWithTermIds) return null;
    const terms = this.knownTerms.lookup(attempt.references);
    if (!terms) return null;
    try {
      const { id } = await queryOne<InsertedRow>(attempt.connection, this.sql.createWithTermIds, [
        ...attempt.values,
        termIdsJson(terms.tag),
        termIdsJson(terms.category),
      ]);
      return createdArticle(id, attempt.article, terms, attempt.author);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      this.knownTerms.forgetAll();
      return null;
    }
  }

  /**
   * The create in one statement when every term it references exists (the common case: terms
   * are created once and never deleted), where the dialect has that statement. Null when it
   * wrote nothing: a reference is unknown or a name is new, for the transaction to resolve.
   */
  private async createWithKnownTerms(attempt: OneStatementCreate): Promise<Article | null> {
    const { connection, article, references, values, author } = attempt;
    if (!this.sql.createWithKnownTerms) return null;
    const { ids, names } = splitReferences(references);
    const rows = await connection.query<CreatedWithTermRow>(this.sql.createWithKnownTerms, [
      ...values,
      ...findTermsValues(ids, names),
    ]);
    const [first] = rows;
    return first ? createdArticle(first.articleId, article, termsReferenced(rows, references), author) : null;
  }

  /**
   * The update's values, $1..$14 of reviseAndUpdateArticle: which fields change (null: kept), the
   * stamp, the versions allowed. The revision's $15 and $16 follow once the article is read.
   */
  private updateValues(id: number, changes: ArticleChanges, expected?: ExpectedVersions): unknown[] {
    const { fields, publication } = changes;
    const folded = searchableTextOf(fields);
    const { encodeBoolean, encodeTimestamp } = this.dialect;
    const publishedAt = publication?.kind === 'set' ? publication.publishedAt : (publication?.at ?? null);
    return [
      id,
      encodeBoolean(fields.title !== undefined),
      fields.title ?? null,
      fields.description ?? null,
      fields.content ?? null,
      publication === undefined ? null : publication.kind === 'set' ? 'set' : 'now',
      encodeTimestamp(changes.updatedAt),
      expected && !expected.anyVersion ? JSON.stringify(expected.versions) : null,
      folded.title ?? null,
      folded.description ?? null,
      folded.content ?? null,
      publishedAt === null ? null : encodeTimestamp(publishedAt),
      fields.featured === undefined ? null : encodeBoolean(fields.featured),
      changes.slug ?? null,
    ];
  }
}

/** A create tried in one statement: on which connection, what, and its insert_article values. */
interface OneStatementCreate {
  readonly connection: SqlConnection;
  readonly article: NewArticle;
  readonly references: TermReferences;
  readonly values: unknown[];
  readonly author: Author | null;
}

/** A row of create_with_known_terms: a term the new article links, and the article's id. */
interface CreatedWithTermRow extends TermRow {
  articleId: number;
}

/** Inserts the article; answers its new id. */
export async function insertArticle(
  connection: SqlConnection,
  sql: ArticleStatements,
  values: unknown[],
): Promise<number> {
  return (await queryOne<InsertedRow>(connection, sql.insertArticle, values)).id;
}

/** The values of insert_article, $1 to $ARTICLE_VALUES (see article-statements.ts). */
export function insertArticleValues(article: NewArticle, dialect: SqlDialect): unknown[] {
  const { fields, createdAt, publishedAt } = article;
  const folded = searchableTextOf(fields);
  // `visible` as the previous release reads it: published at the write's time.
  const visible = publishedAt !== null && publishedAt.getTime() <= createdAt.getTime();
  return [
    fields.title,
    fields.description,
    fields.content,
    dialect.encodeBoolean(visible),
    dialect.encodeTimestamp(createdAt),
    folded.title,
    folded.description,
    folded.content,
    publishedAt === null ? null : dialect.encodeTimestamp(publishedAt),
    dialect.encodeBoolean(fields.featured),
    article.slug.slug,
    article.author?.id ?? null,
  ];
}
