import { type ListVersion, STREAM_CHUNK_SIZE, type VersionObserver } from '../../../../application';
import type { Article } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import { openSqliteReader, SqliteConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import type { SqlStatement } from '../sql-statement';
import type { StreamRow } from './article-rows';
import { PRIMARY_READ, type SqlSessions } from './sql-sessions';
import { articlesWithKnownTerms, type KnownToStream } from './stream-terms';
import { findTerms, NO_NAMES } from './term-resolution';
import type { StreamQuery, StreamStrategy } from './visible-stream';

/**
 * SQLite: the list through better-sqlite3's iterator on a read-only connection of its own, so
 * that the one read-write connection stays free for every other request meanwhile; the terms
 * lookups run as ordinary sessions.
 */
export class ReaderStream implements StreamStrategy {
  constructor(
    /** The database file, or ':memory:'. */
    private readonly file: string,
    private readonly sessions: SqlSessions,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
    private readonly visibleVersion: (moment: Date) => Promise<ListVersion>,
  ) {}

  async *stream(
    query: StreamQuery,
    known: KnownToStream,
    onVersion: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion> {
    // Before the reader opens: what it reads is this version's data or newer (see the port).
    const version = await this.visibleVersion(query.moment);
    onVersion(version);
    for await (const rows of this.chunks(query.select, query.values)) {
      yield await articlesWithKnownTerms(rows, known, this.dialect, (ids) =>
        this.sessions.inSession(PRIMARY_READ, (connection) => findTerms(connection, this.sql, ids, NO_NAMES)),
      );
    }
    return version;
  }

  /**
   * A file database: a read-only connection opened for this stream (WAL lets it read one
   * snapshot while the read-write connection commits). An in-memory database has one connection,
   * which a stream must not hold (the terms lookup and every other call need it): its list, in
   * memory whole already, is read at once and handed out in chunks.
   */
  private async *chunks(select: SqlStatement, values: unknown[]): AsyncGenerator<StreamRow[]> {
    if (this.file === ':memory:') {
      const rows = await this.sessions.inSession(PRIMARY_READ, (connection) =>
        connection.query<StreamRow>(select, values),
      );
      for (let start = 0; start < rows.length; start += STREAM_CHUNK_SIZE) {
        yield rows.slice(start, start + STREAM_CHUNK_SIZE);
      }
      return;
    }
    const reader = openSqliteReader(this.file);
    try {
      yield* new SqliteConnection(reader, new Map()).stream<StreamRow>(select, values, STREAM_CHUNK_SIZE);
    } finally {
      reader.close();
    }
  }
}
