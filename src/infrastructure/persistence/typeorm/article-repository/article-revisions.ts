import type { RevisionsPage, RevisionTest } from '../../../../application';
import type { ArticleRevision } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import type { ReplicaRouting } from './replica-routing';
import { type SqlSessions, WRITE } from './sql-sessions';
import { articleOfStoredJson } from './stored-article-json';

/** Above every revision number: a list without `before` starts at the newest. */
const AFTER_EVERY_REVISION = 2_147_483_647;

/** Revisions per statement when walking back through them: a page's JSON stays small. */
const WALK_PAGE = 200;

interface RevisionRow {
  revision: number;
  replacedAt: number;
  article: string;
}

/** An article's revisions read (on a replica when one may serve), and the retention's purge. */
export class ArticleRevisions {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly routing: ReplicaRouting,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
  ) {}

  list(id: number, page: RevisionsPage): Promise<ArticleRevision[] | null> {
    return this.routing.readYourWrites((connection) => this.listOn(connection, id, page));
  }

  /** ArticleRepository.latestReplacement: pages of WALK_PAGE revisions, newest first, until one passes. */
  latestReplacement(after: Date, upTo: Date, test: RevisionTest): Promise<Date | null> {
    return this.routing.readYourWrites(async (connection) => {
      // Just past upTo: every revision replaced at or before it.
      let position: [Date, number, number] = [new Date(upTo.getTime() + 1), 0, 0];
      for (;;) {
        const rows = await connection.query<RevisionRow & { articleId: number }>(this.sql.revisionsReplacedBefore, [
          this.dialect.encodeTimestamp(after),
          this.dialect.encodeTimestamp(position[0]),
          position[1],
          position[2],
          WALK_PAGE,
        ]);
        for (const row of rows) {
          const replacedAt = new Date(row.replacedAt);
          if (test(articleOfStoredJson(row.article, row.articleId), replacedAt)) return replacedAt;
          position = [replacedAt, row.articleId, row.revision];
        }
        if (rows.length < WALK_PAGE) return null;
      }
    });
  }

  async deleteExpired(upTo: Date, limit: number): Promise<number> {
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query(this.sql.deleteExpiredRevisions, [this.dialect.encodeTimestamp(upTo), limit]),
    );
    return rows.length;
  }

  /** Null when the article has no revision and does not exist: no article ever had the id (or all expired). */
  private async listOn(connection: SqlConnection, id: number, page: RevisionsPage): Promise<ArticleRevision[] | null> {
    const rows = await connection.query<RevisionRow>(this.sql.listRevisions, [
      id,
      page.before ?? AFTER_EVERY_REVISION,
      page.limit ?? this.dialect.unlimited,
    ]);
    if (rows.length === 0 && page.before === undefined) {
      const [exists] = await connection.query(this.sql.articleExists, [id]);
      return exists ? [] : null;
    }
    return rows.map((row) => ({
      revision: row.revision,
      replacedAt: new Date(row.replacedAt),
      article: articleOfStoredJson(row.article, id),
    }));
  }
}
