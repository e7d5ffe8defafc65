/**
 * `npm run bench -- restore`: what a restore of the topology costs at size (issue 28, item 3:
 * "report restore time and WAL replay time separately, for 100,000 articles").
 *
 * What it measures. A topology of `npm run topology` of its own (its own state folder and
 * port; `up` takes the first full backup while the schema is still empty), then N articles
 * (100,000) loaded, then two restores to `latest`, each through `restore` of
 * scripts/topology/restore.ts as `npm run topology -- restore --to latest` runs it:
 *  - A, replay-heavy: from that first backup, so every WAL record of the load is replayed;
 *  - B, files-heavy: from a full backup taken after the load, so the files are the whole
 *    database and little WAL is left to replay.
 * For each: pgBackRest's time copying the files, PostgreSQL's redo time and the WAL it went
 * through (the segments it fetched from the archive, what they take there compressed, and the
 * span of WAL positions from its log's `redo starts at` to `redo done at`), the files to the
 * promotion, the whole command to the service answering, and the size of the backup restored.
 * After each, the articles, links and terms on the restored primary must be those loaded, row
 * for row (a digest of every row), and the service must answer the last article through
 * HAProxy; else the run fails.
 *
 * How to run: as root (the topology's packages, namespaces), with no other topology or
 * benchmark on the machine (the figures are CPU- and disk-bound):
 *   npm run bench -- restore [--articles N] [--seed api|sql] [--instances N]
 * `--seed api` (the default) creates the articles through POST /article/create, 16 at a time,
 * as clients do: one transaction each, so the WAL replayed is the service's own. `--seed sql`
 * writes the same shape of data in a few INSERT … SELECT statements (bench/seed-at-size.ts):
 * seconds instead of minutes, but one transaction, so less WAL and fewer records to replay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listBackups, takeBackup } from '../scripts/topology/backups';
import { archivedBytesOf, type BackupSet } from '../scripts/topology/pgbackrest';
import { flushArchive, type RestoreResult, restore } from '../scripts/topology/restore';
import { settingsFromEnv, type TopologySettings } from '../scripts/topology/settings';
import type { TopologyState } from '../scripts/topology/state';
import { down, up } from '../scripts/topology/topology';
import { freePort } from '../test/support/free-port';
import { sql } from '../test/support/postgres-sql';
import { seedThroughApi } from './api-seed';
import type { BenchDatabase } from './databases';
import { BENCH_TOKEN, call } from './http-client';
import { describeMachine, loadAverage } from './report';
import { writeResultsFile } from './results-file';
import { cleanups } from './run-main';
import { seedAtSize } from './seed-at-size';

export type SeedWay = 'api' | 'sql';

export interface RestoreBenchOptions {
  articles: number;
  seed: SeedWay;
  instances: number;
}

/** Every row the service keeps, counted and digested, to compare a restored cluster with the one loaded. */
interface Fingerprint {
  articles: number;
  tagLinks: number;
  categoryLinks: number;
  digest: string;
}

interface Load {
  way: SeedWay;
  seconds: number;
  /** The primary's WAL position moved this far during the load (segments switched early count whole). */
  walBytes: number;
  lastId: number;
  fingerprint: Fingerprint;
}

/** What every case restores and checks against. */
interface Run {
  state: TopologyState;
  repoRoot: string;
  load: Load;
}

interface CaseFigures {
  name: string;
  backup: BackupSet;
  /** How long taking that backup took (null: `up` took it). */
  backupSeconds: number | null;
  /** Archiving the WAL written up to the restore (the CLI does it before it restores). */
  flushSeconds: number;
  result: RestoreResult;
  /** What the replayed segments take in the repository, compressed: what the redo read of the archive. */
  archivedWalBytes: number;
  after: Fingerprint;
  loadAverage: string;
}

const MB = 2 ** 20;

export async function runRestore(options: RestoreBenchOptions): Promise<void> {
  console.log(`Machine: ${describeMachine()}; load average ${loadAverage()}`);
  const { settings, state } = await startTopology(options.instances);
  const [first, ...others] = listBackups(state);
  // Case A must restore the backup `up` took before any article: the only one there is.
  if (!first || others.length > 0) throw new Error(`expected one backup after up, found ${others.length + 1}`);

  const load = await loadArticles(state, options);
  console.log(
    `Loaded ${load.fingerprint.articles} articles (${options.seed}) in ${load.seconds.toFixed(1)} s, ` +
      `${(load.walBytes / MB).toFixed(0)} MB of WAL positions; load average ${loadAverage()}`,
  );

  const run: Run = { state, repoRoot: settings.repoRoot, load };
  const replayHeavy = await restoreAndCheck(run, 'A: replay-heavy (backup before the load)', first, null);
  expectReplayOfTheLoad(replayHeavy, load);
  const cases = [replayHeavy];
  const started = performance.now();
  const afterLoad = await takeBackup(state, 'full');
  const backupSeconds = (performance.now() - started) / 1000;
  cases.push(await restoreAndCheck(run, 'B: files-heavy (full backup after the load)', afterLoad, backupSeconds));

  console.log(`\n${formatTable(cases)}\n\n${formatSteps(cases)}\n`);
  console.log(`Load average at the end: ${loadAverage()}`);
  const file = writeResultsFile('restore', { machine: describeMachine(), options, load, cases });
  console.log(`Figures written to ${file}`);
}

/** A topology of its own (a fresh state folder, a free port), brought down when the run ends. */
async function startTopology(instances: number): Promise<{ settings: TopologySettings; state: TopologyState }> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-bench-restore-'));
  cleanups.push(() => down(stateDir));
  const settings = settingsFromEnv({
    TOPOLOGY_DIR: stateDir,
    TOPOLOGY_PORT: String(await freePort()),
    API_TOKEN: BENCH_TOKEN,
    INSTANCES: String(instances),
  });
  const started = performance.now();
  const state = await up(settings);
  console.log(`Topology up in ${((performance.now() - started) / 1000).toFixed(1)} s (${instances} instance(s))`);
  return { settings, state };
}

/** Loads the articles the chosen way; answers the time, the WAL written and what is stored. */
async function loadArticles(state: TopologyState, options: RestoreBenchOptions): Promise<Load> {
  const walBefore = await currentWal(state);
  const started = performance.now();
  const lastId =
    options.seed === 'api'
      ? (
          await seedThroughApi(state.lbUrl, options.articles, (done) =>
            console.log(`  ${done} articles created, ${((performance.now() - started) / 1000).toFixed(0)} s`),
          )
        ).lastId
      : (await seedAtSize(topologyDatabase(state), options.articles)).lastId;
  const seconds = (performance.now() - started) / 1000;
  const walBytes = (await currentWal(state)) - walBefore;
  const fingerprint = await fingerprintOf(state);
  if (fingerprint.articles !== options.articles) {
    throw new Error(`loaded ${options.articles} articles but the primary holds ${fingerprint.articles}`);
  }
  return { way: options.seed, seconds, walBytes, lastId, fingerprint };
}

/**
 * The topology's database as bench/seed-at-size.ts takes one: the service's role, straight to
 * the primary (its migrations are in already; running them again changes nothing).
 */
function topologyDatabase(state: TopologyState): BenchDatabase {
  return {
    kind: 'postgres',
    url: withoutStatementTimeout(state.urls.primaryDirect),
    description: 'the topology primary',
    removeArticlesAfter: async () => {},
    close: async () => {},
  };
}

/**
 * One case: archive what was written (as the CLI does), restore to latest, then check that the
 * restored primary holds exactly what was loaded and that the service serves it.
 */
async function restoreAndCheck(
  { state, repoRoot, load }: Run,
  name: string,
  backup: BackupSet,
  backupSeconds: number | null,
): Promise<CaseFigures> {
  console.log(`\n${name}: restoring ${backup.label} (${(backup.databaseBytes / MB).toFixed(0)} MB) and the WAL since`);
  const flushStarted = performance.now();
  if (!(await flushArchive(state))) throw new Error('no primary to archive the last WAL');
  const flushSeconds = (performance.now() - flushStarted) / 1000;
  const result = await restore(state, repoRoot, 'latest');
  const after = await fingerprintOf(state);
  if (JSON.stringify(after) !== JSON.stringify(load.fingerprint)) {
    throw new Error(`${name}: restored ${JSON.stringify(after)}, loaded ${JSON.stringify(load.fingerprint)}`);
  }
  const served = await call<{ id: number } | null>(state.lbUrl, 'GET', `/article/${load.lastId}`);
  if (served?.id !== load.lastId) throw new Error(`${name}: the service does not answer article ${load.lastId}`);
  console.log(`${name}: ${describeResult(result)}; ${after.articles} articles, every row as loaded`);
  const archivedWalBytes = archivedBytesOf(state.postgresDir, result.walSegments);
  return { name, backup, backupSeconds, flushSeconds, result, archivedWalBytes, after, loadAverage: loadAverage() };
}

/**
 * Case A is only replay-heavy if its redo went through every WAL record of the load: it must
 * have started before the load's first and ended after its last, so its span covers the load's.
 */
function expectReplayOfTheLoad(replayHeavy: CaseFigures, load: Load): void {
  const span = replayHeavy.result.redoBytes;
  if (span === null || span < load.walBytes) {
    throw new Error(
      `${replayHeavy.name}: the redo spans ${megabytes(span)} MB, the load wrote ${megabytes(load.walBytes)} MB`,
    );
  }
}

/** Counts and an md5 of every row of the service's tables, each in a fixed order. */
const FINGERPRINT = `SELECT (SELECT count(*) FROM articles)::int AS articles,
  (SELECT count(*) FROM article_tags)::int AS "tagLinks",
  (SELECT count(*) FROM article_categories)::int AS "categoryLinks",
  md5(concat_ws(' ',
    (SELECT md5(string_agg(a::text, E'\\n' ORDER BY a.id)) FROM articles a),
    (SELECT md5(string_agg(l::text, E'\\n' ORDER BY l.article_id, l.tag_id)) FROM article_tags l),
    (SELECT md5(string_agg(l::text, E'\\n' ORDER BY l.article_id, l.category_id)) FROM article_categories l),
    (SELECT md5(string_agg(t::text, E'\\n' ORDER BY t.id)) FROM tags t),
    (SELECT md5(string_agg(c::text, E'\\n' ORDER BY c.id)) FROM categories c))) AS digest`;

async function fingerprintOf(state: TopologyState): Promise<Fingerprint> {
  return onlyRow(await sql<Fingerprint>(withoutStatementTimeout(state.urls.primaryDirect), FINGERPRINT));
}

/** The primary's WAL position, in bytes. */
async function currentWal(state: TopologyState): Promise<number> {
  const row = onlyRow(
    await sql<{ bytes: string }>(
      state.urls.superuser,
      "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS bytes",
    ),
  );
  return Number(row.bytes);
}

/**
 * The service's role has a 2 s statement_timeout of its own (deploy/postgres/setup.sql): right
 * for requests, not for loading 100,000 articles in one statement or digesting every row.
 */
function withoutStatementTimeout(url: string): string {
  const unbounded = new URL(url);
  unbounded.searchParams.set('options', '-c statement_timeout=0');
  return unbounded.toString();
}

function onlyRow<Row>([row]: Row[]): Row {
  if (row === undefined) throw new Error('the primary answered no row');
  return row;
}

const seconds = (ms: number | null) => (ms === null ? '?' : (ms / 1000).toFixed(1));
const megabytes = (bytes: number | null) => (bytes === null ? '?' : (bytes / MB).toFixed(0));

function describeResult(result: RestoreResult): string {
  return (
    `files ${seconds(result.filesMs)} s, WAL replay ${seconds(result.redoMs)} s ` +
    `(${result.walSegments.length} segments, ${megabytes(result.redoBytes)} MB of WAL positions), ` +
    `files to promotion ${seconds(result.replayMs)} s, total ${seconds(result.totalMs)} s`
  );
}

/** One Markdown table, a row per case. */
function formatTable(cases: readonly CaseFigures[]): string {
  const header = [
    'case',
    'backup restored (database / in repository)',
    'backup took',
    'archive flush',
    'files (pgBackRest)',
    'WAL replay (redo)',
    'WAL replayed: segments (16 MB each) / in repository / positions',
    'files to promotion',
    'restore total',
    'articles after',
    'load average',
  ];
  const rows = cases.map(
    ({ name, backup, backupSeconds, flushSeconds, result, archivedWalBytes, after, loadAverage }) => [
      name,
      `${backup.type} ${megabytes(backup.databaseBytes)} MB / ${megabytes(backup.repositoryBytes)} MB`,
      backupSeconds === null ? 'at up' : `${backupSeconds.toFixed(1)} s`,
      `${flushSeconds.toFixed(1)} s`,
      `${seconds(result.filesMs)} s`,
      `${seconds(result.redoMs)} s`,
      `${result.walSegments.length} / ${megabytes(archivedWalBytes)} MB / ${megabytes(result.redoBytes)} MB`,
      `${seconds(result.replayMs)} s`,
      `${seconds(result.totalMs)} s`,
      `${after.articles.toLocaleString('en-US')} (digest equal)`,
      loadAverage,
    ],
  );
  return markdownTable(header, rows);
}

/** Where each restore's total went, a row per case. */
function formatSteps(cases: readonly CaseFigures[]): string {
  const header = [
    'case',
    'stop (instances, nodes, data)',
    'restore to promotion',
    'backup of the new timeline',
    'replicas rebuilt, writes taken',
    'instances back',
    'total',
  ];
  const rows = cases.map(({ name, result: { stepsMs, totalMs } }) => [
    name,
    ...[stepsMs.stop, stepsMs.restore, stepsMs.backup, stepsMs.replicas, stepsMs.instances, totalMs].map(
      (ms) => `${seconds(ms)} s`,
    ),
  ]);
  return markdownTable(header, rows);
}

const markdownTable = (header: readonly string[], rows: readonly string[][]) =>
  [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
