import { E_TIMEOUT, Semaphore, type SemaphoreInterface, withTimeout } from 'async-mutex';
import type { DataSource, ReplicationMode } from 'typeorm';
import { type ListVersion, STREAM_CHUNK_SIZE, type VersionObserver } from '../../../../application';
import { type Article, StorageUnavailableError } from '../../../../domain';
import type { ArticleStatements, SqlStatement } from '../article-statements';
import { POSTGRES_LIMITS } from '../postgres-limits';
import type { ReplicaReadPolicy } from '../replica-read-policy';
import type { SqlDialect } from '../sql-dialect';
import { translateStorageError } from '../storage-errors';
import { queryOne, type StreamRow, type TermRow, type VersionRow } from './article-rows';
import { CursorSession } from './cursor-session';
import { REPLICA_READ_DEADLINE_MS } from './replica-routing';
import { articlesWithKnownTerms, type KnownTerms, type TermLookup } from './stream-terms';
import { findTermsValues, NO_NAMES } from './term-resolution';
import type { StreamStrategy } from './visible-stream';

/** Pool connections that streams leave to the other requests. */
const STREAM_FREE_CONNECTIONS = 2;
/**
 * How long a stream waits for one of its slots: lists queue behind lists (a whole list takes
 * seconds at 100,000 articles anyway), never behind the 1.5 s pool wait of gets, pages and
 * writes. With 1.5 s here, 32 clients reading the whole list at once got 12 answers 503 in a
 * bench run that the old batched list served.
 */
export const STREAM_SLOT_WAIT_MS = 10_000;

export interface CursorStreamOptions {
  prepared: boolean;
  replicaReadPolicy: ReplicaReadPolicy | null;
  streamSlotWaitMs?: number;
  /** Starts every version answered (see TypeOrmArticleRepository). */
  versionPrefix: string;
}

/**
 * PostgreSQL: the list through a SQL cursor (DECLARE, then FETCH) in a read-only repeatable-read
 * transaction on a pooled connection, held until the stream ends; on a replica first when reads
 * go there. A SQL cursor rather than a protocol-level portal (pg-cursor): between two FETCHes
 * the connection is free for the terms lookup in the same transaction, and each FETCH is a
 * statement of its own, so statement_timeout bounds each one and the server's
 * idle-in-transaction timeout ends a stream whose client stopped reading.
 */
export class CursorStream implements StreamStrategy {
  /**
   * A stream holds its connection until the list is written, so streams together may hold all
   * but STREAM_FREE_CONNECTIONS of the pool; the other requests always find one. A stream waits
   * for a slot up to STREAM_SLOT_WAIT_MS, then is answered 503.
   */
  private readonly slots: SemaphoreInterface;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
    private readonly options: CursorStreamOptions,
  ) {
    const poolSize = (dataSource.options as { extra?: { max?: number } }).extra?.max ?? POSTGRES_LIMITS.poolSize;
    this.slots = withTimeout(
      new Semaphore(Math.max(1, poolSize - STREAM_FREE_CONNECTIONS)),
      options.streamSlotWaitMs ?? STREAM_SLOT_WAIT_MS,
    );
  }

  /**
   * On a replica when reads go there (so that the whole list, like pages, is served while the
   * primary is away); a replica that fails before the first chunk is skipped like for any read,
   * and the list is read on the primary instead.
   */
  async *stream(
    select: SqlStatement,
    values: unknown[],
    known: KnownTerms,
    onVersion: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion> {
    const replicas = this.options.replicaReadPolicy;
    if (replicas?.useReplica()) {
      let started = false;
      const onFirstChunk = () => {
        started = true;
        replicas.served('replica');
      };
      try {
        return yield* this.streamOn('slave', select, values, known, onVersion, onFirstChunk);
      } catch (error) {
        const translated = translateStorageError(error);
        if (started || !(translated instanceof StorageUnavailableError)) throw translated;
        replicas.failed();
      }
    }
    const version = yield* this.streamOn('master', select, values, known, onVersion);
    replicas?.served('primary');
    return version;
  }

  private async *streamOn(
    mode: ReplicationMode,
    select: SqlStatement,
    values: unknown[],
    known: KnownTerms,
    onVersion: VersionObserver,
    onFirstChunk: () => void = () => {},
  ): AsyncGenerator<Article[], ListVersion> {
    const releaseSlot = await this.acquireSlot();
    const session = new CursorSession(
      this.dataSource.createQueryRunner(mode),
      this.options.prepared,
      // A replica that does not answer soon is left for the primary, as for any read.
      mode === 'slave' ? REPLICA_READ_DEADLINE_MS : POSTGRES_LIMITS.callDeadlineMs,
      this.sql.commit,
    );
    const lookupTerms: TermLookup = (ids) => session.query<TermRow>(this.sql.findTerms, findTermsValues(ids, NO_NAMES));
    let nextRows: Promise<StreamRow[]> | null = null;
    try {
      await session.open();
      await session.query(this.sql.beginSnapshot, []);
      const version =
        this.options.versionPrefix + (await queryOne<VersionRow>(session, this.sql.dataVersion, [])).version;
      onVersion(version);
      await session.query(this.sql.declareStream(select), values);
      const fetch = this.sql.fetchStream(STREAM_CHUNK_SIZE);
      let rows = await session.query<StreamRow>(fetch, []);
      let first = true;
      for (;;) {
        // The chunk's terms lookup (when it needs one) is sent first, then the next FETCH, so
        // that the database reads the next chunk while this one is written to the client.
        const articles =
          rows.length > 0 ? articlesWithKnownTerms(rows, known, this.dialect, lookupTerms) : Promise.resolve([]);
        nextRows = rows.length < STREAM_CHUNK_SIZE ? null : session.query<StreamRow>(fetch, []);
        // Not awaited if the caller stops first: its failure is the finally block's to see.
        nextRows?.catch(() => {});
        if (rows.length > 0) {
          const chunk = await articles;
          if (first) onFirstChunk();
          first = false;
          yield chunk;
        }
        if (nextRows === null) break;
        rows = await nextRows;
        nextRows = null;
      }
      return version;
    } finally {
      // Also reached when the caller stops between two chunks; a FETCH sent ahead is let finish
      // (its rows are dropped).
      await nextRows?.catch(() => {});
      await session.close();
      releaseSlot();
    }
  }

  /** One of the streams' slots; StorageUnavailableError when none frees up in time. */
  private async acquireSlot(): Promise<() => void> {
    try {
      const [, release] = await this.slots.acquire();
      return release;
    } catch (error) {
      if (error === E_TIMEOUT) throw new StorageUnavailableError({ cause: error });
      throw error;
    }
  }
}
