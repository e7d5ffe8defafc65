import { E_TIMEOUT, Semaphore, type SemaphoreInterface, withTimeout } from 'async-mutex';
import { escapeLiteral } from 'pg';
import type { DataSource } from 'typeorm';
import { type ListVersion, STREAM_CHUNK_SIZE, type VersionObserver } from '../../../../application';
import { type Article, StorageUnavailableError } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import { POSTGRES_LIMITS } from '../postgres-limits';
import type { ReplicaReadPolicy } from '../replica-read-policy';
import type { SqlDialect } from '../sql-dialect';
import { translateStorageError } from '../storage-errors';
import { type StreamRow, type TermRow, termOf, type VersionRow } from './article-rows';
import { CursorSession } from './cursor-session';
import { type ReadAttempt, ReadAttempts } from './read-attempts';
import { articlesWithKnownTerms, type KnownToStream, type TermLookup } from './stream-terms';
import { findTermsValues, NO_NAMES } from './term-resolution';
import type { StreamQuery, StreamStrategy } from './visible-stream';

/**
 * Terms a stream reads at its start when the storage has no more of them (about 80 bytes
 * each): then no chunk needs a lookup. With more, each chunk looks up those it links to.
 */
const TERMS_READ_AT_START = 200;
/**
 * A FETCH that took longer than this (a database far away) makes the next one FETCH_GROWTH times
 * larger, up to MAX_FETCH_ROWS: a link of 500 ms round trip paid one per chunk. On a near
 * database a FETCH of a chunk takes a few milliseconds, and the stream holds one chunk at a time.
 */
const SLOW_FETCH_MS = 100;
const FETCH_GROWTH = 4;
const MAX_FETCH_ROWS = 4_000;

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
   * primary is away), tried node after node as any read is (read-attempts.ts) until one serves
   * the first chunk: during a switchover the replicas skipped after one failed read are often
   * the only nodes that answer, while PgBouncer refuses every login to the primary's entry for a
   * while. A failure after the first chunk ends the list.
   */
  async *stream(
    query: StreamQuery,
    known: KnownToStream,
    onVersion: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion> {
    const attempts = new ReadAttempts(this.options.replicaReadPolicy);
    let failure: StorageUnavailableError | undefined;
    for (let attempt = await attempts.next(); attempt !== null; attempt = await attempts.next()) {
      const served = yield* this.beforeFirstChunkFails(attempt, query, known, onVersion);
      if (served.failed === null) return served.version;
      failure = served.failed;
      attempts.missedOn(attempt.node, 'failed');
    }
    throw failure ?? new StorageUnavailableError();
  }

  /**
   * The list on one node, counted to the replica policy once it serves. A storage failure before
   * the first chunk is answered (`failed`), for the caller to try another node; any other error,
   * or one after a chunk was handed on, is thrown.
   */
  private async *beforeFirstChunkFails(
    attempt: ReadAttempt,
    query: StreamQuery,
    known: KnownToStream,
    onVersion: VersionObserver,
  ): AsyncGenerator<
    Article[],
    { version: ListVersion; failed: null } | { version: null; failed: StorageUnavailableError }
  > {
    let started = false;
    const onFirstChunk = () => {
      started = true;
      this.options.replicaReadPolicy?.served(attempt.node);
    };
    try {
      return { version: yield* this.streamOn(attempt, query, known, onVersion, onFirstChunk), failed: null };
    } catch (error) {
      const translated = translateStorageError(error);
      if (started || !(translated instanceof StorageUnavailableError)) throw translated;
      return { version: null, failed: translated };
    }
  }

  private async *streamOn(
    attempt: ReadAttempt,
    query: StreamQuery,
    known: KnownToStream,
    onVersion: VersionObserver,
    onFirstChunk: () => void = () => {},
  ): AsyncGenerator<Article[], ListVersion> {
    const releaseSlot = await this.acquireSlot();
    const session = new CursorSession(
      this.dataSource.createQueryRunner(attempt.node === 'replica' ? 'slave' : 'master'),
      this.options.prepared,
      attempt.deadlineMs,
      this.sql.commit,
    );
    const lookupTerms: TermLookup = (ids) => session.query<TermRow>(this.sql.findTerms, findTermsValues(ids, NO_NAMES));
    let nextRows: Promise<StreamRow[]> | null = null;
    try {
      await session.open();
      // One round trip to the first chunk: the snapshot's transaction, its version, the cursor
      // (its values written as literals), the first FETCH and the terms when they are few.
      const opened = performance.now();
      const [, versionRows, , firstRows, termRows] = await session.queryAll(
        [
          this.sql.beginSnapshot.text,
          withLiterals(this.sql.dataVersion.text, [query.moment]),
          withLiterals(this.sql.declareStream(query.select).text, query.values),
          this.sql.fetchStream(STREAM_CHUNK_SIZE).text,
          this.sql.someTerms(TERMS_READ_AT_START + 1).text,
        ].join(';\n'),
      );
      const versionRow = (versionRows as VersionRow[])[0];
      if (!versionRow) throw new Error('data_version answered no row');
      const version = this.options.versionPrefix + versionRow.version;
      onVersion(version);
      // All of them (no more than the limit): the stream never looks one up.
      if ((termRows as TermRow[]).length <= TERMS_READ_AT_START)
        for (const row of termRows as TermRow[]) known[row.kind].set(row.id, termOf(row));
      let rows = firstRows as StreamRow[];
      let asked = STREAM_CHUNK_SIZE;
      let tookMs = performance.now() - opened;
      let first = true;
      for (;;) {
        // The chunk's terms lookup (when it needs one) is sent first, then the next FETCH, so
        // that the database reads the next chunk while this one is written to the client.
        const articles =
          rows.length > 0 ? articlesWithKnownTerms(rows, known, this.dialect, lookupTerms) : Promise.resolve([]);
        if (rows.length < asked) nextRows = null;
        else {
          // Over a slow link each FETCH costs a round trip and a ramp of TCP's window: fewer, larger ones.
          if (tookMs > SLOW_FETCH_MS) asked = Math.min(asked * FETCH_GROWTH, MAX_FETCH_ROWS);
          const sent = performance.now();
          nextRows = session.query<StreamRow>(this.sql.fetchStream(asked), []).then((fetched) => {
            tookMs = performance.now() - sent;
            return fetched;
          });
          // Not awaited if the caller stops first: its failure is the finally block's to see.
          nextRows.catch(() => {});
        }
        const fetched = await articles;
        for (let start = 0; start < fetched.length; start += STREAM_CHUNK_SIZE) {
          if (first) onFirstChunk();
          first = false;
          yield fetched.slice(start, start + STREAM_CHUNK_SIZE);
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

/**
 * The statement with its parameters ($1, $2, …) replaced by their values as SQL literals, for
 * the simple protocol, which takes no parameters: integers as digits, null as NULL, text quoted
 * by pg's escapeLiteral (the quoting the server's own quote_literal does), booleans as TRUE or
 * FALSE, instants as quoted ISO text. Outside quoted text
 * only: the statements here hold no parameter-like text in their literals, but a `$n` there
 * stays as written.
 */
export function withLiterals(text: string, values: readonly unknown[]): string {
  return text.replace(/'(?:[^']|'')*'|\$(\d+)/g, (match, number: string | undefined) => {
    if (number === undefined) return match;
    const value = values[Number(number) - 1];
    if (value === null) return 'NULL';
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    if (typeof value === 'string') return escapeLiteral(value);
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    if (value instanceof Date) return escapeLiteral(value.toISOString());
    throw new Error(`parameter $${number}: no literal for ${typeof value}`);
  });
}
