import type { ExpectedVersions } from '../../../../application';
import {
  type Article,
  ArticleChangedError,
  RevisionNotFoundError,
  SlugTakenError,
  searchableTextOf,
} from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { isArticleIdConflict, isSlugConflict } from '../storage-errors';
import { type ArticleRow, articleWithTermsOf, queryOne, termIdsJson } from './article-rows';
import type { OutboxRecording } from './outbox-recording';
import { EVERY_WRITER, keepRevision } from './revision-keeping';
import { type SqlSessions, WRITE } from './sql-sessions';
import { articleOfStoredJson } from './stored-article-json';
import { inTransaction, runInOrder } from './transaction';

/**
 * Restores of an article to one of its revisions, in one transaction: the revision read, the
 * state it replaces kept as a new revision (an existing article's, under its row lock), the
 * article written back (a deleted one inserted again under its id, with the version after its
 * last), its slug, its links and its events.
 */
export class ArticleRestores {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
    private readonly outbox: OutboxRecording,
  ) {}

  async restore(id: number, revision: number, at: Date, expected?: ExpectedVersions): Promise<Article> {
    let slug: string | undefined;
    for (let tries = 1; ; tries++) {
      try {
        return await this.sessions.inSession(WRITE, (connection) =>
          inTransaction(connection, this.sql, async () => {
            const target = await this.revisionOf(connection, id, revision);
            slug = target.slug;
            return this.writeBack(connection, target, at, expected);
          }),
        );
      } catch (error) {
        if (slug !== undefined && isSlugConflict(error)) throw new SlugTakenError(slug);
        // Two restores of one deleted article: the other inserted it first; this one now replaces it.
        if (tries === 1 && isArticleIdConflict(error)) continue;
        throw error;
      }
    }
  }

  private async revisionOf(connection: SqlConnection, id: number, revision: number): Promise<Article> {
    const [kept] = await connection.query<{ article: string }>(this.sql.findRevision, [id, revision]);
    if (!kept) throw new RevisionNotFoundError(id, revision);
    return articleOfStoredJson(kept.article, id);
  }

  private async writeBack(
    connection: SqlConnection,
    target: Article,
    at: Date,
    expected: ExpectedVersions | undefined,
  ): Promise<Article> {
    const { id } = target;
    const { encodeTimestamp, encodeBoolean } = this.dialect;
    const before = await keepRevision(connection, this.sql, this.dialect, { id, at, expected, guard: EVERY_WRITER });
    // A deleted article is at no version: a condition on one, `*` included, fails.
    if (!before && expected) throw new ArticleChangedError(id);
    const folded = searchableTextOf(target);
    const values = [
      id,
      target.title,
      target.description,
      target.content,
      target.publishedAt === null ? null : encodeTimestamp(target.publishedAt),
      encodeBoolean(target.featured),
      target.slug,
      encodeTimestamp(at),
      folded.title,
      folded.description,
      folded.content,
    ];
    if (before) {
      await connection.query(this.sql.restoreArticle, values);
      // Its slug before leads to it from now on; the one it takes leads nowhere else any more.
      if (before.slug !== target.slug)
        await runInOrder(connection, this.sql.rememberSlug, [before.slug, id, target.slug]);
    } else {
      const last = await queryOne<{ version: number }>(connection, this.sql.lastRevisedVersion, [id]);
      const visible = target.publishedAt !== null && target.publishedAt.getTime() <= at.getTime();
      await connection.query(this.sql.reinsertArticle, [
        ...values,
        encodeTimestamp(target.createdAt),
        last.version + 1,
        encodeBoolean(visible),
        target.author?.id ?? null,
      ]);
    }
    await runInOrder(connection, this.sql.replaceLinks, [
      id,
      termIdsJson(target.tags),
      termIdsJson(target.categories),
      encodeBoolean(true),
      encodeBoolean(true),
    ]);
    const after = articleWithTermsOf(await queryOne<ArticleRow>(connection, this.sql.findArticle, [id]), this.dialect);
    await this.outbox.recordReplacement(connection, { before, after, at });
    return after;
  }
}
