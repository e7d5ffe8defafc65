import { randomUUID } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import type { DataSource } from 'typeorm';
import type {
  ArticleChanges,
  ArticleRepository,
  ExpectedVersions,
  IdempotencyClaim,
  KeyedCreateOutcome,
  ListVersion,
  NewArticle,
  RevisionsPage,
  RevisionTest,
  SlugLookup,
  VersionObserver,
  VisibleArticlesFilter,
  VisibleArticlesPage,
  WriteEvents,
  WriteGuard,
} from '../../../../application';
import { NO_WRITE_EVENTS } from '../../../../application';
import type { Article, ArticleRevision, Term, TermKind } from '../../../../domain';
import { articleStatements } from '../article-statements';
import { readsFromReplicas } from '../data-source';
import { idempotencyStatements } from '../idempotency-statements';
import type { PrimaryWriteGate } from '../primary-write-gate';
import type { ReplicaReadPolicy } from '../replica-read-policy';
import { sqlDialectOf } from '../sql-dialect';
import { webhookStatementsOf } from '../webhook-statements';
import { ArticleReads } from './article-reads';
import { ArticleRestores } from './article-restores';
import { ArticleRevisions } from './article-revisions';
import { ArticleWrites } from './article-writes';
import { CursorStream } from './cursor-stream';
import { KeyedCreates } from './keyed-creates';
import { KnownTerms } from './known-terms';
import { OutboxRecording } from './outbox-recording';
import { postgresSessions } from './postgres-sessions';
import { ReaderStream } from './reader-stream';
import { ReplicaRouting } from './replica-routing';
import { SqlSessions } from './sql-sessions';
import { sqliteSessionsOf } from './sqlite-sessions';
import { VisibleStream } from './visible-stream';

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
  replicaReadPolicy?: ReplicaReadPolicy;
  /**
   * PostgreSQL: the gate in front of the primary; writes it refuses fail at once with
   * StorageUnavailableError. Without it every write tries the primary.
   */
  primaryWriteGate?: PrimaryWriteGate;
  /** When tracing is on: a span per statement (traced-sql-connection.ts). Unset: no wrapper at all. */
  tracer?: Tracer;
  /**
   * How writes record their webhook events, in their own transaction (outbox-recording.ts).
   * Default NO_WRITE_EVENTS: nothing recorded, every write as before webhooks.
   */
  writeEvents?: WriteEvents;
}

/**
 * Articles with their tags and categories on PostgreSQL or SQLite, as the ArticleRepository
 * port. This class only delegates: one algorithm per behaviour, in the files beside it, over a
 * dialect (sql-dialect.ts) that holds only what differs. The statements are fixed SQL
 * (article-statements.ts) run on each session's own driver connection, without query building
 * or entity hydration.
 */
export class TypeOrmArticleRepository implements ArticleRepository {
  private readonly writes: ArticleWrites;
  private readonly keyedCreates: KeyedCreates;
  private readonly reads: ArticleReads;
  private readonly restores: ArticleRestores;
  private readonly revisions: ArticleRevisions;
  private readonly stream: VisibleStream;

  constructor(dataSource: DataSource, options: TypeOrmArticleRepositoryOptions = {}) {
    const dialect = sqlDialectOf(dataSource.options);
    const sql = articleStatements(dialect);
    const prepared = options.preparedStatements ?? true;
    const replicaReadPolicy = readsFromReplicas(dataSource.options) ? (options.replicaReadPolicy ?? null) : null;
    const sessions = new SqlSessions(
      dataSource,
      dialect.serialisesWritersInProcess ? sqliteSessionsOf(dataSource) : postgresSessions(prepared),
      dialect,
      dialect.failsOver ? (options.primaryWriteGate ?? null) : null,
      options.tracer ?? null,
    );
    const routing = new ReplicaRouting(sessions, replicaReadPolicy);
    const versionPrefix = dialect.versionsOfOneConnection ? `${randomUUID()}/` : '';
    const outbox = new OutboxRecording(options.writeEvents ?? NO_WRITE_EVENTS, webhookStatementsOf(dialect), dialect);
    this.writes = new ArticleWrites(sessions, sql, dialect, outbox, new KnownTerms());
    const keyStatements = idempotencyStatements(dialect);
    this.keyedCreates = new KeyedCreates(sessions, { sql, keyStatements, dialect, outbox });
    this.reads = new ArticleReads(routing, sql, dialect, versionPrefix);
    this.restores = new ArticleRestores(sessions, sql, dialect, outbox);
    this.revisions = new ArticleRevisions(sessions, routing, sql, dialect);
    const strategy = dialect.serialisesWritersInProcess
      ? new ReaderStream((dataSource.options as { database: string }).database, sessions, sql, dialect, (moment) =>
          this.reads.visibleVersion(moment),
        )
      : new CursorStream(dataSource, sql, dialect, {
          prepared,
          replicaReadPolicy,
          streamSlotWaitMs: options.streamSlotWaitMs,
          versionPrefix,
        });
    this.stream = new VisibleStream(() => dataSource.isInitialized, strategy, sql, dialect);
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

  update(
    id: number,
    changes: ArticleChanges,
    expected: ExpectedVersions | undefined,
    guard: WriteGuard,
  ): Promise<Article | null> {
    return this.writes.update(id, changes, expected, guard);
  }

  delete(id: number, at: Date, expected: ExpectedVersions | undefined, guard: WriteGuard): Promise<Article | null> {
    return this.writes.delete(id, at, expected, guard);
  }

  restore(id: number, revision: number, at: Date, expected?: ExpectedVersions): Promise<Article> {
    return this.restores.restore(id, revision, at, expected);
  }

  listRevisions(id: number, page: RevisionsPage): Promise<ArticleRevision[] | null> {
    return this.revisions.list(id, page);
  }

  latestReplacement(after: Date, upTo: Date, test: RevisionTest): Promise<Date | null> {
    return this.revisions.latestReplacement(after, upTo, test);
  }

  deleteExpiredRevisions(upTo: Date, limit: number): Promise<number> {
    return this.revisions.deleteExpired(upTo, limit);
  }

  findById(id: number): Promise<Article | null> {
    return this.reads.findById(id);
  }

  findBySlug(slug: string): Promise<SlugLookup | null> {
    return this.reads.findBySlug(slug);
  }

  listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]> {
    return this.reads.listVisible(page, onVersion);
  }

  streamVisible(
    filter: VisibleArticlesFilter,
    onVersion?: VersionObserver,
  ): AsyncGenerator<Article[], ListVersion | undefined> {
    return this.stream.streamVisible(filter, onVersion);
  }

  visibleVersion(moment: Date): Promise<ListVersion> {
    return this.reads.visibleVersion(moment);
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.reads.listTerms(kind);
  }
}
