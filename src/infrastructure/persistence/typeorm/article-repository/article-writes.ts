import type { ArticleChanges, ExpectedVersions, NewArticle } from '../../../../application';
import { type Article, ArticleChangedError, searchableTextOf } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import {
  type ArticleRow,
  articleWithTermsOf,
  createdArticle,
  hasReferences,
  type InsertedRow,
  NO_TERMS,
  queryOne,
  type TermRow,
  termIdsJson,
} from './article-rows';
import { type SqlSessions, WRITE } from './sql-sessions';
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
 * dialect combines writes. Otherwise one with term references resolves them, writes and links
 * inside one transaction.
 */
export class ArticleWrites {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
  ) {}

  create(article: NewArticle): Promise<Article> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const values = insertArticleValues(article, this.dialect);
      if (!hasReferences(article)) {
        // One statement: atomic without a transaction.
        const id = await insertArticle(connection, this.sql, values);
        return createdArticle(id, article, NO_TERMS);
      }
      const references = { tag: article.tags, category: article.categories };
      // One statement when every referenced term exists; else the transaction resolves them.
      const created = await this.createWithKnownTerms(connection, article, references, values);
      if (created) return created;
      return inTransaction(connection, this.sql, async () => {
        const terms = await resolveTerms(connection, this.sql, references);
        const id = await insertArticle(connection, this.sql, values);
        await runInOrder(connection, this.sql.insertLinks, [id, termIdsJson(terms.tag), termIdsJson(terms.category)]);
        return createdArticle(id, article, terms);
      });
    });
  }

  update(id: number, changes: ArticleChanges, expected?: ExpectedVersions): Promise<Article | null> {
    const values = this.updateValues(id, changes, expected);
    return this.sessions.inSession(WRITE, async (connection) => {
      if (!changes.tags && !changes.categories) {
        // One statement writes and answers the article.
        const [row] = await connection.query<ArticleRow>(this.sql.updateArticle, values);
        return row ? articleWithTermsOf(row, this.dialect) : this.missingOrChanged(connection, id);
      }
      return inTransaction(connection, this.sql, async () => {
        // The update comes first: it locks the article row, so racing updates of one article queue up.
        const [row] = await connection.query<ArticleRow>(this.sql.updateArticle, values);
        if (!row) return this.missingOrChanged(connection, id);
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
      });
    });
  }

  delete(id: number, expected?: ExpectedVersions): Promise<Article | null> {
    return this.sessions.inSession(WRITE, (connection) =>
      inTransaction(connection, this.sql, async () => {
        const [locked] = await connection.query<{ version: number }>(this.sql.lockArticle, [id]);
        if (!locked) return null;
        if (expected && !expected.versions.includes(locked.version)) throw new ArticleChangedError(id);
        const row = await queryOne<ArticleRow>(connection, this.sql.findArticle, [id]);
        // The links go with the article (ON DELETE CASCADE); its tags and categories stay.
        await connection.query(this.sql.deleteArticle, [id]);
        return articleWithTermsOf(row, this.dialect);
      }),
    );
  }

  /**
   * The create in one statement when every term it references exists (the common case: terms
   * are created once and never deleted), where the dialect has that statement. Null when it
   * wrote nothing: a reference is unknown or a name is new, for the transaction to resolve.
   */
  private async createWithKnownTerms(
    connection: SqlConnection,
    article: NewArticle,
    references: TermReferences,
    values: unknown[],
  ): Promise<Article | null> {
    if (!this.sql.createWithKnownTerms) return null;
    const { ids, names } = splitReferences(references);
    const rows = await connection.query<CreatedWithTermRow>(this.sql.createWithKnownTerms, [
      ...values,
      ...findTermsValues(ids, names),
    ]);
    const [first] = rows;
    return first ? createdArticle(first.articleId, article, termsReferenced(rows, references)) : null;
  }

  /** The values of update_article: which fields change (null: kept), the stamp, the versions allowed. */
  private updateValues(id: number, changes: ArticleChanges, expected?: ExpectedVersions): unknown[] {
    const { fields } = changes;
    const folded = searchableTextOf(fields);
    return [
      id,
      this.dialect.encodeBoolean(fields.title !== undefined),
      fields.title ?? null,
      fields.description ?? null,
      fields.content ?? null,
      fields.visible === undefined ? null : this.dialect.encodeBoolean(fields.visible),
      this.dialect.encodeTimestamp(changes.updatedAt),
      expected ? JSON.stringify(expected.versions) : null,
      folded.title ?? null,
      folded.description ?? null,
      folded.content ?? null,
    ];
  }

  /** After a write that matched no row: null when the article does not exist, else it changed. */
  private async missingOrChanged(connection: SqlConnection, id: number): Promise<null> {
    const [existing] = await connection.query(this.sql.lockArticle, [id]);
    if (existing) throw new ArticleChangedError(id);
    return null;
  }
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

/** The values of insert_article, $1 to $8: the fields, the creation stamp, the folded copies. */
export function insertArticleValues(article: NewArticle, dialect: SqlDialect): unknown[] {
  const { fields, createdAt } = article;
  const folded = searchableTextOf(fields);
  return [
    fields.title,
    fields.description,
    fields.content,
    dialect.encodeBoolean(fields.visible),
    dialect.encodeTimestamp(createdAt),
    folded.title,
    folded.description,
    folded.content,
  ];
}
