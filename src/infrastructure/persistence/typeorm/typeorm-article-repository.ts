import { randomUUID } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import { E_TIMEOUT, Semaphore, type SemaphoreInterface, withTimeout } from 'async-mutex';
import type { DataSource, ReplicationMode } from 'typeorm';
import {
  type ArticleChanges,
  type ArticleRepository,
  type ExpectedVersions,
  type IdempotencyClaim,
  type KeyedCreateOutcome,
  type ListVersion,
  type NewArticle,
  STREAM_CHUNK_SIZE,
  type VisibleArticlesFilter,
  type VisibleArticlesPage,
} from '../../../application';
import { type Article, DomainError, StorageUnavailableError, type Term, type TermKind } from '../../../domain';
import {
  type ArticleRow,
  articleOf,
  articleWithTermsOf,
  attachLinks,
  type LinkRow,
  type StreamRow,
  type TermRow,
  termOf,
} from './article-repository/article-rows';
import { ArticleWrites } from './article-repository/article-writes';
import { KeyedCreates } from './article-repository/keyed-creates';
import { postgresSessions } from './article-repository/postgres-sessions';
import { REPLICA_READ_DEADLINE_MS, ReplicaRouting } from './article-repository/replica-routing';
import { PRIMARY_READ, SqlSessions } from './article-repository/sql-sessions';
import { sqliteSessions } from './article-repository/sqlite-sessions';
import { findTerms, findTermsValues, NO_NAMES } from './article-repository/term-resolution';
import { type ArticleStatements, articleStatements, type SqlStatement, TERM_KINDS } from './article-statements';
import { idempotencyStatements } from './idempotency-statements';
import { POSTGRES_LIMITS } from './postgres-limits';
import { type PrimaryBreaker } from './primary-breaker';
import { type ReplicaReads } from './replica-reads';
import { openSqliteReader, PgConnection, type SqlConnection, SqliteConnection } from './sql-connection';
import { POSTGRES_DIALECT, SQLITE_DIALECT, type SqlDialect } from './sql-dialect';
import { withinDeadline } from './storage-deadline';
import { translateStorageError } from './storage-errors';
import { type FilterShape, filterShapeOf, filterValues, PROBE_IDS } from './visible-articles-filter';

export interface TypeOrmArticleRepositoryOptions {
  /** PostgreSQL: how long a whole-list stream waits for a slot before its 503 (default STREAM_SLOT_WAIT_MS). */
  streamSlotWaitMs?: number;
  /**
   * PostgreSQL: send each statement as a named prepared statement (default). Turn off behind a
   * pooler that cannot keep them across server connections (PgBouncer < 1.21, transaction mode).
   */
  preparedStatements?: boolean;
  /**
   * PostgreSQL with TypeORM replication: reads go to the replicas while they answer and keep up;
   * without it every read goes to the primary.
   */
  replicaReads?: ReplicaReads;
  /**
   * PostgreSQL: the breaker in front of the primary; writes it refuses fail at once with
   * StorageUnavailableError. Without it every write tries the primary.
   */
  primaryBreaker?: PrimaryBreaker;
  /** When tracing is on: a span per statement (traced-sql-connection.ts). Unset: no wrapper at all. */
  tracer?: Tracer;
}

/** The terms a stream has read, by id: terms never change once created, so they can be reused. */
type KnownTerms = Record<TermKind, Map<string, Term>>;

/** Pool connections that streams leave to the other requests (PostgreSQL). */
const STREAM_FREE_CONNECTIONS = 2;
/**
 * How long a stream waits for one of its slots: lists queue behind lists (a whole list takes
 * seconds at 100,000 articles anyway), never behind the 1.5 s pool wait of gets, pages and
 * writes. With 1.5 s here, 32 clients reading the whole list at once got 12 answers 503 in a
 * bench run that the old batched list served.
 */
const STREAM_SLOT_WAIT_MS = 10_000;

/** A stream keeps at most about this many terms (a few MB). */
const KNOWN_TERMS_LIMIT = 10_000;

const STATEMENTS = { postgres: articleStatements(POSTGRES_DIALECT), sqlite: articleStatements(SQLITE_DIALECT) };
const KEY_STATEMENTS = {
  postgres: idempotencyStatements(POSTGRES_DIALECT),
  sqlite: idempotencyStatements(SQLITE_DIALECT),
};

/**
 * Articles with their tags and categories on PostgreSQL or SQLite: one algorithm over a dialect
 * (sql-dialect.ts) that holds only what differs. Every connection comes from TypeORM's query
 * runners, which listen for the connection's errors for as long as it is checked out and give
 * a broken one back to the pool to be dropped; the statements are fixed SQL (article-statements.ts)
 * run on the runner's own driver connection, without query building or entity hydration.
 */
export class TypeOrmArticleRepository implements ArticleRepository {
  private readonly dialect: SqlDialect;
  private readonly sql: ArticleStatements;
  private readonly writes: ArticleWrites;
  private readonly keyedCreates: KeyedCreates;
  private readonly prepared: boolean;
  private readonly replicaReads: ReplicaReads | null;
  private readonly sessions: SqlSessions;
  private readonly routing: ReplicaRouting;
  /** SQLite: streams read on a connection of their own (see sqliteStream). */
  private readonly sqliteLock: boolean;
  /**
   * PostgreSQL: a stream holds its connection until the list is written, so streams together
   * may hold all but STREAM_FREE_CONNECTIONS of the pool; the other requests always find one.
   * A stream waits for a slot up to STREAM_SLOT_WAIT_MS, then is answered 503.
   */
  private readonly streamSlots: SemaphoreInterface | null;
  /**
   * Starts every version this repository answers. SQLite's counters are its one connection's,
   * and a new repository (a new connection) could count them again from the start.
   */
  private readonly versionPrefix = `${randomUUID()}/`;

  constructor(
    private readonly dataSource: DataSource,
    options: TypeOrmArticleRepositoryOptions = {},
  ) {
    const postgres = dataSource.options.type === 'postgres';
    this.dialect = postgres ? POSTGRES_DIALECT : SQLITE_DIALECT;
    this.sql = STATEMENTS[this.dialect.name];
    this.prepared = options.preparedStatements ?? true;
    this.replicaReads = postgres && dataSource.options.replication ? (options.replicaReads ?? null) : null;
    this.sqliteLock = !postgres;
    this.sessions = new SqlSessions(
      dataSource,
      postgres ? postgresSessions(this.prepared) : sqliteSessions(),
      this.dialect,
      postgres ? (options.primaryBreaker ?? null) : null,
      options.tracer ?? null,
    );
    this.routing = new ReplicaRouting(this.sessions, this.replicaReads);
    this.writes = new ArticleWrites(this.sessions, this.sql, this.dialect);
    this.keyedCreates = new KeyedCreates(this.sessions, {
      sql: this.sql,
      keyStatements: KEY_STATEMENTS[this.dialect.name],
      dialect: this.dialect,
    });
    const poolSize = (dataSource.options as { extra?: { max?: number } }).extra?.max ?? POSTGRES_LIMITS.poolSize;
    this.streamSlots = postgres
      ? withTimeout(
          new Semaphore(Math.max(1, poolSize - STREAM_FREE_CONNECTIONS)),
          options.streamSlotWaitMs ?? STREAM_SLOT_WAIT_MS,
        )
      : null;
  }

  create(article: NewArticle): Promise<Article> {
    return this.writes.create(article);
  }

  createWithKey(article: NewArticle, claim: IdempotencyClaim): Promise<KeyedCreateOutcome> {
    return this.keyedCreates.createWithKey(article, claim);
  }

  deleteExpiredKeys(upTo: Date, limit: number): Promise<number> {
    return this.keyedCreates.deleteExpiredKeys(upTo, limit);
  }

  update(id: number, changes: ArticleChanges, expected?: ExpectedVersions): Promise<Article | null> {
    return this.writes.update(id, changes, expected);
  }

  delete(id: number, expected?: ExpectedVersions): Promise<Article | null> {
    return this.writes.delete(id, expected);
  }

  async findById(id: number): Promise<Article | null> {
    const { value, node } = await this.routing.read((connection) => this.findOn(connection, id));
    // Read-your-writes: an article just created may not have reached the replica yet.
    // A primary that cannot be asked makes this a 503, never a wrong null.
    if (value === null && node === 'replica')
      return this.sessions.run(PRIMARY_READ, (connection) => this.findOn(connection, id));
    return value;
  }

  listVisible(page: VisibleArticlesPage): Promise<Article[]> {
    const shape = filterShapeOf(page);
    const after = page.afterId ?? 0;
    const rowsOf = (connection: SqlConnection, statementShape: FilterShape) =>
      connection.query<ArticleRow>(this.sql.pageOfVisible(statementShape), [
        after,
        page.limit,
        ...filterValues(this.dialect, page, statementShape, after + PROBE_IDS),
      ]);
    return this.routing.readValue(async (connection) => {
      let rows: ArticleRow[] | null = null;
      if (shape.search === 'indexed' && this.dialect.probesBeforeSearchIndex) {
        // A full page within the next ids holds the first matches: nothing after them comes first.
        const probed = await rowsOf(connection, { ...shape, search: 'probe' });
        if (probed.length === page.limit) rows = probed;
      }
      rows ??= await rowsOf(connection, shape);
      if (rows.length === 0) return [];
      const ids = JSON.stringify(rows.map((row) => row.id));
      const links = await connection.query<LinkRow>(this.sql.linksOfArticles, [ids]);
      return attachLinks(rows, links, this.dialect);
    });
  }

  /**
   * The whole list as one statement read in chunks: on PostgreSQL through a cursor (DECLARE,
   * then FETCH) in a read-only transaction on a pooled connection of the primary, held until
   * the stream ends; on SQLite through an iterator on a read-only connection of its own, so
   * that the one read-write connection stays free for every other request meanwhile. Each
   * chunk's terms come from the ones this stream has read already, or one findTerms for those
   * it has not (terms never change once created).
   */
  async *streamVisible(filter: VisibleArticlesFilter): AsyncGenerator<Article[], ListVersion | undefined> {
    const shape = filterShapeOf(filter);
    const statement = this.sql.streamOfVisible(shape);
    const values = [filter.afterId ?? 0, this.dialect.unlimited, ...filterValues(this.dialect, filter, shape)];
    // After shutdown (or before the database was first reached) there is no connection: retry later.
    if (!this.dataSource.isInitialized) throw new StorageUnavailableError();
    const known: KnownTerms = { tag: new Map(), category: new Map() };
    try {
      if (!this.sqliteLock) return yield* this.postgresStreamOnAReplicaFirst(statement, values, known);
      // Before the reader opens: what it reads is this version's data or newer (see the port).
      const version = await this.visibleVersion();
      for await (const rows of this.sqliteStream(statement, values)) {
        yield await this.withTerms(rows, known, (ids) =>
          this.sessions.run(PRIMARY_READ, (connection) => findTerms(connection, this.sql, ids, NO_NAMES)),
        );
      }
      return version;
    } catch (error) {
      throw translateStorageError(error);
    }
  }

  /**
   * The stream on a replica when reads go there (so that the whole list, like pages, is served
   * while the primary is away); a replica that fails before the first chunk is skipped like for
   * any read, and the list is read on the primary instead.
   */
  private async *postgresStreamOnAReplicaFirst(
    select: SqlStatement,
    values: unknown[],
    known: KnownTerms,
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    const replicas = this.replicaReads;
    if (replicas?.useReplica()) {
      let started = false;
      const onFirstChunk = () => {
        started = true;
        replicas.served('replica');
      };
      try {
        return yield* this.postgresStream('slave', select, values, known, onFirstChunk);
      } catch (error) {
        const translated = translateStorageError(error);
        if (started || !(translated instanceof StorageUnavailableError)) throw translated;
        replicas.failed();
      }
    }
    const version = yield* this.postgresStream('master', select, values, known);
    replicas?.served('primary');
    return version;
  }

  /**
   * A SQL cursor rather than a protocol-level portal (pg-cursor): between two FETCHes the
   * connection is free for the terms lookup in the same transaction, and each FETCH is a
   * statement of its own, so statement_timeout bounds each one and the server's
   * idle-in-transaction timeout ends a stream whose client stopped reading. The cursor is closed
   * and the transaction ended before the connection goes back to the pool; after any failure the
   * connection is discarded instead (it may be mid-statement or in an aborted transaction).
   */
  private async *postgresStream(
    mode: ReplicationMode,
    select: SqlStatement,
    values: unknown[],
    known: KnownTerms,
    onFirstChunk: () => void = () => {},
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    let releaseSlot: () => void;
    try {
      [, releaseSlot] = await (this.streamSlots as SemaphoreInterface).acquire();
    } catch (error) {
      if (error === E_TIMEOUT) throw new StorageUnavailableError({ cause: error });
      throw error;
    }
    const runner = this.dataSource.createQueryRunner(mode);
    let connection: PgConnection | undefined;
    let failed = false;
    const query = async <Row>(statement: SqlStatement, queryValues: unknown[]) => {
      try {
        return await withinDeadline(
          (connection as PgConnection).query<Row>(statement, queryValues),
          // A replica that does not answer soon is left for the primary, as for any read.
          mode === 'slave' ? REPLICA_READ_DEADLINE_MS : POSTGRES_LIMITS.callDeadlineMs,
        );
      } catch (error) {
        failed = true;
        // The runner was released under us: its connection failed while we used it.
        if (runner.isReleased && !(error instanceof DomainError)) throw new StorageUnavailableError({ cause: error });
        throw error;
      }
    };
    const lookupTerms = (ids: Record<TermKind, string[]>) =>
      query<TermRow>(this.sql.findTerms, findTermsValues(ids, NO_NAMES));
    let nextRows: Promise<StreamRow[]> | null = null;
    try {
      try {
        connection = new PgConnection(await runner.connect(), this.prepared);
      } catch (error) {
        throw new StorageUnavailableError({ cause: error });
      }
      await query(this.sql.beginSnapshot, []);
      const [versionRow] = await query<{ version: string }>(this.sql.dataVersion, []);
      await query(this.sql.declareStream(select), values);
      const fetch = this.sql.fetchStream(STREAM_CHUNK_SIZE);
      let rows = await query<StreamRow>(fetch, []);
      let first = true;
      for (;;) {
        // The chunk's terms lookup (when it needs one) is sent first, then the next FETCH, so
        // that the database reads the next chunk while this one is written to the client.
        const articles = rows.length > 0 ? this.withTerms(rows, known, lookupTerms) : Promise.resolve([]);
        nextRows = rows.length < STREAM_CHUNK_SIZE ? null : query<StreamRow>(fetch, []);
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
      return this.versionPrefix + (versionRow as { version: string }).version;
    } finally {
      // Also reached when the caller stops between two chunks; a FETCH sent ahead is let finish
      // (its rows are dropped). COMMIT also closes the cursor (it is not WITH HOLD).
      await nextRows?.catch(() => {});
      if (connection && !failed) await query(this.sql.commit, []).catch(() => {});
      if (failed) connection?.discard();
      await runner.release();
      releaseSlot();
    }
  }

  /**
   * A file database: a read-only connection opened for this stream (WAL lets it read one
   * snapshot while the read-write connection commits). An in-memory database has one connection,
   * which a stream must not hold (the terms lookup and every other call need it): its list, in
   * memory whole already, is read at once and handed out in chunks.
   */
  private async *sqliteStream(statement: SqlStatement, values: unknown[]): AsyncGenerator<StreamRow[]> {
    const file = (this.dataSource.options as { database: string }).database;
    if (file === ':memory:') {
      const rows = await this.sessions.run(PRIMARY_READ, (connection) =>
        connection.query<StreamRow>(statement, values),
      );
      for (let start = 0; start < rows.length; start += STREAM_CHUNK_SIZE) {
        yield rows.slice(start, start + STREAM_CHUNK_SIZE);
      }
      return;
    }
    const reader = openSqliteReader(file);
    try {
      yield* new SqliteConnection(reader, new Map()).stream<StreamRow>(statement, values, STREAM_CHUNK_SIZE);
    } finally {
      reader.close();
    }
  }

  visibleVersion(): Promise<ListVersion> {
    return this.routing.readValue(async (connection) => {
      const [row] = await connection.query<{ version: string }>(this.sql.dataVersion, []);
      return this.versionPrefix + (row as { version: string }).version;
    });
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.routing.readValue((connection) => connection.query<Term>(this.sql.listTerms[kind], []));
  }

  private async findOn(connection: SqlConnection, id: number): Promise<Article | null> {
    const [row] = await connection.query<ArticleRow>(this.sql.findArticle, [id]);
    return row ? articleWithTermsOf(row, this.dialect) : null;
  }

  /**
   * The chunk's articles with their terms: those this stream has met already, and the others
   * read with one lookup. The terms kept are bounded: past KNOWN_TERMS_LIMIT they are dropped
   * and read again as needed.
   */
  private async withTerms(
    rows: readonly StreamRow[],
    known: KnownTerms,
    lookup: (ids: Record<TermKind, string[]>) => Promise<TermRow[]>,
  ): Promise<Article[]> {
    if (known.tag.size + known.category.size > KNOWN_TERMS_LIMIT) {
      known.tag.clear();
      known.category.clear();
    }
    const linked = rows.map((row) => ({
      tag: this.dialect.decodeJson<string[] | null>(row.tagIds) ?? [],
      category: this.dialect.decodeJson<string[] | null>(row.categoryIds) ?? [],
    }));
    const missing: Record<TermKind, Set<string>> = { tag: new Set(), category: new Set() };
    for (const ids of linked) {
      for (const kind of TERM_KINDS) for (const id of ids[kind]) if (!known[kind].has(id)) missing[kind].add(id);
    }
    if (missing.tag.size + missing.category.size > 0) {
      for (const row of await lookup({ tag: [...missing.tag], category: [...missing.category] })) {
        known[row.kind].set(row.id, termOf(row));
      }
    }
    const termsOf = (kind: TermKind, ids: readonly string[]) =>
      ids.map((id) => known[kind].get(id)).filter((term): term is Term => term !== undefined);
    return rows.map((row, index) => {
      const ids = linked[index] as Record<TermKind, string[]>;
      return articleOf(row, termsOf('tag', ids.tag), termsOf('category', ids.category));
    });
  }
}
