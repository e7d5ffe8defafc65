import type { ListVersion, VersionObserver, VisibleArticlesFilter } from '../../../../application';
import { type Article, StorageUnavailableError } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlDialect } from '../sql-dialect';
import type { SqlStatement } from '../sql-statement';
import { translateStorageError } from '../storage-errors';
import { filterShapeOf, filterValues } from '../visible-articles-filter';
import { type KnownToStream, nothingKnownToStream } from './stream-terms';

/**
 * How one database reads the whole list's statement in chunks (cursor-stream.ts for
 * PostgreSQL, reader-stream.ts for SQLite); answers the version the list was read at.
 */
/** The whole list's statement, its values, and the moment the list is read at (for its version). */
export interface StreamQuery {
  readonly select: SqlStatement;
  readonly values: unknown[];
  readonly moment: Date;
}

export interface StreamStrategy {
  stream(
    query: StreamQuery,
    known: KnownToStream,
    /** Told the version before the first chunk (see ArticleRepository.streamVisible). */
    onVersion: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion | undefined>;
}

/**
 * The whole list as one statement read in chunks. Each chunk's terms come from the ones this
 * stream has read already, or one find_terms for those it has not (terms never change once
 * created): see stream-terms.ts.
 */
export class VisibleStream {
  constructor(
    private readonly isInitialized: () => boolean,
    private readonly strategy: StreamStrategy,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
  ) {}

  async *streamVisible(
    filter: VisibleArticlesFilter,
    onVersion: VersionObserver = () => {},
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    const shape = filterShapeOf(filter);
    const statement = this.sql.streamOfVisible(shape);
    const values = [
      this.dialect.unlimited,
      this.dialect.encodeTimestamp(filter.moment),
      ...filterValues(this.dialect, filter, shape),
    ];
    // After shutdown (or before the database was first reached) there is no connection: retry later.
    if (!this.isInitialized()) throw new StorageUnavailableError();
    const known = nothingKnownToStream();
    try {
      return yield* this.strategy.stream({ select: statement, values, moment: filter.moment }, known, onVersion);
    } catch (error) {
      throw translateStorageError(error);
    }
  }
}
