import type { DataSourceOptions } from 'typeorm';

/**
 * What differs between PostgreSQL and SQLite for the article repository, and nothing else:
 * placeholders, a few SQL fragments, how values are encoded, and capability flags. The
 * statements (article-statements.ts) and the repository's algorithms (article-repository/)
 * are shared, and ask the flags, never which database they run on.
 */
export interface SqlDialect {
  /** OpenTelemetry's `db.system.name` (sqlite's is still in the incubating set). */
  readonly traceSystemName: 'postgresql' | 'sqlite';
  /**
   * One connection in this process (SQLite): sessions run one at a time (concurrent
   * transactions would interleave on it) with no deadline (it is synchronous), and a stream
   * reads on a connection of its own. Else sessions run concurrently on a pool, each within its
   * deadline, and a stream holds a pooled connection with a cursor.
   */
  readonly serialisesWritersInProcess: boolean;
  /**
   * A server that can fail over (PostgreSQL): writes go through the primary's write gate, and
   * reads may go to replicas when TypeORM replication is configured.
   */
  readonly failsOver: boolean;
  /**
   * One statement can claim an Idempotency-Key and insert the article, telling a create in
   * progress by the key's advisory lock (PostgreSQL). Else the keyed create runs under the
   * database's write lock and claims the key last.
   */
  readonly claimsKeyInOneStatement: boolean;
  /** A SELECT … FOR UPDATE can skip the rows other transactions have locked (SKIP LOCKED). */
  readonly skipsLockedRows: boolean;
  /** A SELECT answering `ro`: 'on' when the server takes no writes (SQLite answers 1: never read-only). */
  readonly readOnlyCheck: string;
  /** The n-th parameter (1-based); the same parameter may appear several times. */
  param(n: number): string;
  /** A JSON array parameter as a one-column table of its elements (`value`), typed `elementType`. */
  jsonElements(n: number, elementType: 'int' | 'text'): string;
  /** A JSON array-of-arrays parameter as rows; `value ->> i` is element i of a row (text). */
  jsonRows(n: number): string;
  /** The n-th parameter is a JSON text that may be null. */
  jsonParam(n: number): string;
  /** A timestamp from text as encodeTimestamp writes it, JSON-encoded (a value from jsonRows). */
  timestampOfText(text: string): string;
  /** A timestamp column as epoch milliseconds (a number). */
  epochMs(column: string): string;
  /** A JSON array of `{id, name, description}` built from the rows of alias `t`, ordered by name. */
  termsJsonArray: string;
  /** The author whose id is in `column` as a JSON object `{id, name, slug}`; null when the column is. */
  authorJsonOf(column: string): string;
  /** An aggregate: the JSON array of `value` over the group's rows, in the order of `orderBy` (any order without). */
  jsonArrayOf(value: string, orderBy?: string): string;
  /** The larger of two values. */
  greatest: 'GREATEST' | 'MAX';
  /** The value of a LIMIT parameter that limits nothing (PostgreSQL: NULL; SQLite: a negative number). */
  unlimited: null | number;
  /** A stream joins its links aggregated per article (PostgreSQL), or reads them per row (SQLite); see termIdsOf. */
  aggregatesLinksByJoin: boolean;
  /** Opens a write transaction. */
  begin: string;
  /**
   * A SELECT answering `version`: a text that differs after any commit this connection can see
   * (the repository's visibleVersion). PostgreSQL: the server (address, port, database, start
   * time), then the snapshot; within one server's life its history is linear, so an equal
   * snapshot means equal data, whichever process asks. SQLite: data_version changes when another
   * connection commits, total_changes() when this one writes. `latestPublished`, a scalar
   * subquery, is appended: it changes when a scheduled article's time arrives.
   */
  dataVersion(latestPublished: string): string;
  /**
   * dataVersion counts from the start for each connection (SQLite), so another repository's
   * versions repeat this one's: the repository starts each of its versions with a prefix of its
   * own. PostgreSQL's name the data itself, so every instance of the service agrees on them.
   */
  versionsOfOneConnection: boolean;
  /** Appended to a SELECT that reads the row a transaction is about to change. */
  lockRow: string;
  /**
   * Several data-changing statements can run as one (PostgreSQL: WITH … INSERT/DELETE). When
   * false, the repository sends them one after another, inside its transaction.
   */
  combinesWrites: boolean;
  /**
   * Keeps the articles (alias `a`) whose folded title, description or content contains the
   * folded query in parameter `param`, each field on its own (a match never spans two), exactly:
   * an index may narrow, never decide. `indexed`: the query has at least 3 code points, enough
   * for the trigram index. `index`, when there is one, is a table the statement joins on
   * `rowId` = article id and may walk in id order.
   */
  searchFolded(
    a: string,
    param: string,
    indexed: boolean,
  ): { condition: string; index?: { table: string; rowId: string } };
  /**
   * A search page first reads the next PROBE_IDS ids unindexed and uses the index only when
   * they hold no full page. SQLite's FTS5 reads a common word's whole trigram lists whatever
   * the LIMIT (measured: 10 to 13 ms a page for a word on 60 % of 100,000 articles, 0.1 ms
   * probed); PostgreSQL's planner makes that choice itself from the column statistics.
   */
  probesBeforeSearchIndex: boolean;
  /** The parameter value searchFolded compares with, for a folded query (indexed or not). */
  searchValue(foldedQuery: string): string;
  encodeBoolean(value: boolean): unknown;
  encodeTimestamp(value: Date): unknown;
  /** JSON columns: PostgreSQL's driver parses them, SQLite answers text. */
  decodeJson<T>(value: unknown): T;
}

/** PostgreSQL: names compare in "C" collation (the schema says so), timestamps are timestamptz(3). */
export const POSTGRES_DIALECT: SqlDialect = {
  traceSystemName: 'postgresql',
  serialisesWritersInProcess: false,
  failsOver: true,
  claimsKeyInOneStatement: true,
  skipsLockedRows: true,
  readOnlyCheck: `SELECT current_setting('transaction_read_only') AS ro`,
  param: (n) => `$${n}`,
  jsonElements: (n, elementType) =>
    `(SELECT value::${elementType === 'int' ? 'integer' : 'varchar'} FROM json_array_elements_text($${n}::json) AS value)`,
  jsonRows: (n) => `json_array_elements($${n}::json) AS value`,
  jsonParam: (n) => `$${n}::json`,
  timestampOfText: (text) => `CAST(${text} AS timestamptz)`,
  // float8 holds every millisecond value exactly; a number becomes a Date faster than text parses.
  // Through bigint (the columns hold whole milliseconds; the cast rounds as round() would): a
  // numeric's cast to float8 goes through its text, and with round() it cost the statement of
  // the 100,000-article list 60 of its 590 ms.
  epochMs: (column) => `(extract(epoch FROM ${column}) * 1000)::bigint::float8`,
  termsJsonArray: `coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'description', t.description)
                    ORDER BY t.name), '[]')`,
  authorJsonOf: (column) =>
    `(SELECT json_build_object('id', au.id, 'name', au.name, 'slug', au.slug) FROM authors au WHERE au.id = ${column})`,
  jsonArrayOf: (value, orderBy) => (orderBy ? `json_agg(${value} ORDER BY ${orderBy})` : `json_agg(${value})`),
  greatest: 'GREATEST',
  unlimited: null,
  aggregatesLinksByJoin: true,
  begin: 'BEGIN',
  dataVersion: (
    latestPublished,
  ) => `SELECT concat_ws('/', host(inet_server_addr()), inet_server_port(), current_database(),
                  extract(epoch FROM pg_postmaster_start_time()), pg_current_snapshot(),
                  coalesce(${latestPublished}::text, '-')) AS version`,
  versionsOfOneConnection: false,
  lockRow: ' FOR UPDATE',
  combinesWrites: true,
  // The GIN trigram index (pg_trgm, gin_trgm_ops) serves LIKE '%…%' on each column: a BitmapOr.
  searchFolded: (a, param) => ({
    condition: `(${a}.search_title LIKE ${param} OR ${a}.search_description LIKE ${param} OR ${a}.search_content LIKE ${param})`,
  }),
  probesBeforeSearchIndex: false,
  // LIKE's escape character is the backslash: every character of the query is literal.
  searchValue: (foldedQuery) => `%${foldedQuery.replace(/[\\%_]/g, '\\$&')}%`,
  encodeBoolean: (value) => value,
  encodeTimestamp: (value) => value,
  decodeJson: <T>(value: unknown) => value as T,
};

/**
 * SQLite: BINARY collation sorts names by code point; timestamps are stored as UTC text with
 * milliseconds (`2026-01-02 03:04:05.678`, the format TypeORM has always written); booleans 0/1.
 * BEGIN IMMEDIATE takes the write lock at once, so two processes' transactions never deadlock
 * upgrading a read lock. One connection: a transaction already serializes writers (no row lock).
 */
export const SQLITE_DIALECT: SqlDialect = {
  traceSystemName: 'sqlite',
  serialisesWritersInProcess: true,
  failsOver: false,
  claimsKeyInOneStatement: false,
  skipsLockedRows: false,
  readOnlyCheck: 'SELECT 1 AS ro',
  // Named (@p1), not numbered (?1): better-sqlite3 binds names, and a statement may skip a number.
  param: (n) => `@p${n}`,
  jsonElements: (n) => `(SELECT value FROM json_each(@p${n}))`,
  jsonRows: (n) => `json_each(@p${n})`,
  jsonParam: (n) => `@p${n}`,
  // Stored as this text: compared as it is (its fixed format orders as the instants do).
  timestampOfText: (text) => text,
  epochMs: (column) => `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`,
  termsJsonArray: `json_group_array(json_object('id', t.id, 'name', t.name, 'description', t.description)
                    ORDER BY t.name)`,
  authorJsonOf: (column) =>
    `(SELECT json_object('id', au.id, 'name', au.name, 'slug', au.slug) FROM authors au WHERE au.id = ${column})`,
  jsonArrayOf: (value, orderBy) =>
    orderBy ? `json_group_array(${value} ORDER BY ${orderBy})` : `json_group_array(${value})`,
  greatest: 'MAX',
  unlimited: -1,
  aggregatesLinksByJoin: false,
  begin: 'BEGIN IMMEDIATE',
  dataVersion: (latestPublished) =>
    `SELECT data_version || ':' || total_changes() || ':' || coalesce(${latestPublished}, '-') AS version FROM pragma_data_version`,
  versionsOfOneConnection: true,
  lockRow: '',
  combinesWrites: false,
  // instr() (literal, no pattern characters) decides on each article. The FTS5 table (trigram
  // tokenizer, case-sensitive on the folded copies) only narrows to the rows holding the query
  // as a phrase: its tokenizer reads U+FFFE and U+FFFF as U+FFFD, so its matches are confirmed.
  // A query under 3 code points has no trigram: instr() alone, on each article read in id order.
  searchFolded: (a, param, indexed) => {
    const contains = `(instr(${a}.search_title, ${param}) > 0 OR instr(${a}.search_description, ${param}) > 0
                       OR instr(${a}.search_content, ${param}) > 0)`;
    if (!indexed) return { condition: contains };
    // An FTS5 string: inside double quotes every character is literal but the quote, doubled.
    const phrase = `'"' || replace(${param}, '"', '""') || '"'`;
    return {
      condition: `article_search MATCH ${phrase} AND ${contains}`,
      index: { table: 'article_search', rowId: 'article_search.rowid' },
    };
  },
  probesBeforeSearchIndex: true,
  searchValue: (foldedQuery) => foldedQuery,
  encodeBoolean: (value) => (value ? 1 : 0),
  encodeTimestamp: (value) => value.toISOString().replace('T', ' ').replace('Z', ''),
  decodeJson: <T>(value: unknown) => JSON.parse(value as string) as T,
};

/** The dialect of a TypeORM data source (only PostgreSQL and SQLite are ever configured). */
export function sqlDialectOf(options: DataSourceOptions): SqlDialect {
  return options.type === 'postgres' ? POSTGRES_DIALECT : SQLITE_DIALECT;
}
