import { HELP, oneOf, parseStrict, positiveInteger, UsageError } from './command-line';
import type * as Explain from './explain';
import type * as ExpressPrototypes from './express-prototypes';
import type * as LatencyBench from './latency';
import type * as MigrateLiveBench from './migrate-live';
import { type BenchFlag, type BenchOptions, HTTP_USAGE, parseOptions } from './options';
import { PAGE_SCENARIOS, SPREAD_SCENARIOS } from './page-scenarios';
import type * as PagesBench from './pages';
import type * as Profiling from './profile';
import type * as ProfileSummary from './profile-summary';
import type * as ReportFile from './report-file';
import type * as RestoreBench from './restore';
import type * as HttpBench from './run';
import { SCENARIOS } from './scenarios';
import type * as Seeding from './seed-at-size';
import type * as TopologyBench from './topology';
import type * as WebhookBench from './webhook-backlog';

/**
 * The subcommands of `npm run bench -- <subcommand>`, each with its usage and its parser. A
 * command line parses into the work to run; the modules that run a subcommand are required only
 * when it runs, so that parsing (and --help, and the unit tests) loads none of them, only the
 * scenario lists it checks keys against: topology.ts, for one, asks the system for its clock
 * rate as it loads.
 */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** What runMain stops on an interrupt, for its message. */
  what: string;
  /** The options of `argv` (after the subcommand's name), as the work to run. */
  parse(argv: readonly string[]): () => Promise<void>;
}

/** The flags the measuring subcommands share with http (options.ts), without http's own. */
const LOAD_FLAGS: readonly BenchFlag[] = ['quick', 'rounds', 'duration', 'warmup', 'connections', 'scenarios'];

const PAGES_USAGE = `npm run bench -- pages [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
                       [--scenarios page,page-tag,page-search-rare,page-search-common,
                                    full-list,spread-page,spread-tag]
                       [--no-sqlite] [--no-postgres] [--compare-env KEY=VALUE]...
Pages of 20 at 1,000 and 100,000 articles seeded in SQL, the whole list at 100,000, then pages at
spread positions after a seed through the API. BENCH_COMPARE_MAIN=<a build's dist/src/main.js>
measures that build's pages and whole list at 100,000 in turn with the service's (with
--compare-env in its environment); BENCH_SERVICE_MAIN and BENCH_DATABASE_URL as for http.`;

const TOPOLOGY_USAGE = `npm run bench -- topology [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
                          [--scenarios get,create,list,...]
The topology of \`npm run topology\` (as root), measured hop by hop; scenarios get, list and create
unless --scenarios says otherwise.`;

const LATENCY_USAGE = `npm run bench -- latency [--delay-ms MS] [--articles N] [--runs N] [--tuned-tcp]
As root: PostgreSQL 15 in a network namespace, netem adding MS (250) each way between it and the
service, N (2000) articles; the whole list's first byte, end and round trips on the wire over
--runs (5) runs, the cached answer's, and one list with no idle connection in the pool.
--tuned-tcp: on that link only, no slow start after idle on PostgreSQL's side and initial
windows of 64 segments (what an operator can do about TCP slow start).`;

const RESTORE_USAGE = `npm run bench -- restore [--articles N] [--seed api|sql] [--instances N]
As root, with no other topology running: a topology of its own, N (100000) articles loaded
through the API (--seed api, one transaction each) or in SQL (--seed sql, a few statements),
then restore --to latest from the backup taken before the load (every WAL record replayed) and
from a full backup taken after it (the files); per restore the files, WAL replay and total
times, the WAL replayed and the backup's size; each restore is checked row for row.
--instances (2) service instances behind HAProxy.`;

const MIGRATE_LIVE_USAGE = `npm run bench -- migrate-live [--articles N] [--clients N] [--previous REF]
The publishing migration on a live PostgreSQL: the previous release (git REF, HEAD by default,
built in a temporary folder) serves N (100000) articles seeded in SQL while --clients (20) write
through it; this tree's migration runs meanwhile, in a process of its own. Prints its total and
per-step times, the longest pause between acknowledged writes during it and before it, the writes
refused or failed, then checks every row (exit 1 when one is wrong).`;

const SEED_USAGE = `npm run bench -- seed [--articles N] [--kinds postgres,sqlite]
Seeds a fresh database of each kind with N articles (100000) in SQL, prints the time and the
counts, and drops it.`;

const EXPLAIN_USAGE = `npm run bench -- explain [--articles N]
Seeds a fresh PostgreSQL and SQLite database with N articles (100000) and prints the plans of the
repository's page, search, links and get-by-id statements.`;

const PROFILE_USAGE = `npm run bench -- profile [--scenario KEY] [--seconds S] [--storage postgres|sqlite] [--key]
                         [--stack-floor <dir>]
Runs one scenario (get) for S seconds (10) on a service started with --cpu-prof, on PostgreSQL
unless --storage sqlite, prints where its CPU went (by package, function, and CPU µs per answer by
component) and keeps the profile in bench/results/profiles/.
--key: on PostgreSQL, the bench's token is a writer's key (author role) instead of API_TOKEN.
--stack-floor <dir>: then the stack floor the same way (get, create-ids), and
both component tables side by side.`;

const PROFILE_SUMMARY_USAGE = `npm run bench -- profile-summary <file.cpuprofile> [--top N]
Where the CPU time of a V8 profile went: the N (25) biggest packages or files and functions.`;

const WEBHOOKS_USAGE = `npm run bench -- webhooks [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
                          [--scenarios get,create]
Issue 38's constraint: a get and a create with 100 webhook deliveries pending to a receiver that
never answers, against an idle queue, in alternating runs of one service on PostgreSQL.`;

const EXPRESS_PROTOTYPES_USAGE = `npm run bench -- express-prototypes [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
ADR 0051: a bare Express app on Node's plain server and on one that builds requests and responses
with the app's prototypes, with the service's V8 flags, in alternating runs: requests a second and
bytes promoted per young collection. No database.`;

const REPORT_USAGE = `npm run bench -- report <bench/results/bench-….json>
Prints the tables of an http results file again.`;

const STORAGES = ['postgres', 'sqlite'] as const;
const SEED_WAYS = ['api', 'sql'] as const;
const LOAD_SCENARIOS = SCENARIOS.map((scenario) => scenario.key);
/** pages: its page scenarios, the whole list, and the pages after a seed through the API. */
const PAGES_SCENARIOS = [...PAGE_SCENARIOS, { key: 'full-list' }, ...SPREAD_SCENARIOS].map((scenario) => scenario.key);

export const COMMANDS: readonly Command[] = [
  {
    name: 'http',
    summary: 'the service against the raw baseline (and other builds), PostgreSQL then SQLite',
    usage: HTTP_USAGE,
    what: 'the servers and the database',
    parse(argv) {
      const options = withKnownScenarios(parseOptions(argv), LOAD_SCENARIOS, HTTP_USAGE);
      return async () => (require('./run') as typeof HttpBench).runHttp(options);
    },
  },
  {
    name: 'pages',
    summary: 'pages, search and the whole list at 1,000 and 100,000 articles',
    usage: PAGES_USAGE,
    what: 'the servers and the databases',
    parse(argv) {
      const options = withKnownScenarios(
        parseOptions(argv, PAGES_USAGE, [...LOAD_FLAGS, 'no-sqlite', 'no-postgres', 'compare-env']),
        PAGES_SCENARIOS,
        PAGES_USAGE,
      );
      return async () => (require('./pages') as typeof PagesBench).runPages(options);
    },
  },
  {
    name: 'topology',
    summary: 'the topology of `npm run topology`, hop by hop (as root)',
    usage: TOPOLOGY_USAGE,
    what: 'the topology',
    parse(argv) {
      const options = withKnownScenarios(
        parseOptions(argv, TOPOLOGY_USAGE, LOAD_FLAGS),
        LOAD_SCENARIOS,
        TOPOLOGY_USAGE,
      );
      return async () => (require('./topology') as typeof TopologyBench).runTopology(options);
    },
  },
  {
    name: 'webhooks',
    summary: 'a get and a create with 100 deliveries pending to a receiver that hangs, against an idle queue',
    usage: WEBHOOKS_USAGE,
    what: 'the service, the receiver and the database',
    parse(argv) {
      const options = withKnownScenarios(
        parseOptions(argv, WEBHOOKS_USAGE, LOAD_FLAGS),
        LOAD_SCENARIOS,
        WEBHOOKS_USAGE,
      );
      return async () => (require('./webhook-backlog') as typeof WebhookBench).runWebhookBacklog(options);
    },
  },
  {
    name: 'express-prototypes',
    summary: "a bare Express app on Node's plain server against one built with the app's prototypes (ADR 0051)",
    usage: EXPRESS_PROTOTYPES_USAGE,
    what: 'the two apps',
    parse(argv) {
      const options = parseOptions(argv, EXPRESS_PROTOTYPES_USAGE, [
        'quick',
        'rounds',
        'duration',
        'warmup',
        'connections',
      ]);
      return async () => (require('./express-prototypes') as typeof ExpressPrototypes).runExpressPrototypes(options);
    },
  },
  {
    name: 'latency',
    summary: 'the whole list with netem delay between the service and PostgreSQL (as root)',
    usage: LATENCY_USAGE,
    what: 'the service, the database and the network namespaces',
    parse(argv) {
      const { values } = parseStrict(
        argv,
        {
          ...HELP,
          'delay-ms': { type: 'string', default: '250' },
          articles: { type: 'string', default: '2000' },
          runs: { type: 'string', default: '5' },
          'tuned-tcp': { type: 'boolean', default: false },
        },
        LATENCY_USAGE,
      );
      const options = {
        delayMs: positiveInteger('--delay-ms', values['delay-ms'], LATENCY_USAGE),
        articles: positiveInteger('--articles', values.articles, LATENCY_USAGE),
        runs: positiveInteger('--runs', values.runs, LATENCY_USAGE),
        tunedTcp: values['tuned-tcp'],
      };
      return async () => (require('./latency') as typeof LatencyBench).runLatency(options);
    },
  },
  {
    name: 'restore',
    summary: 'restore --to latest of the topology at N articles: files and WAL replay apart (as root)',
    usage: RESTORE_USAGE,
    what: 'the topology',
    parse(argv) {
      const options = parseRestoreOptions(argv);
      return async () => (require('./restore') as typeof RestoreBench).runRestore(options);
    },
  },
  {
    name: 'migrate-live',
    summary: 'the publishing migration while clients write through the previous release',
    usage: MIGRATE_LIVE_USAGE,
    what: 'the service, the migration and the database',
    parse(argv) {
      const options = parseMigrateLiveOptions(argv);
      return async () => (require('./migrate-live') as typeof MigrateLiveBench).runMigrateLive(options);
    },
  },
  {
    name: 'seed',
    summary: 'seeds N articles in SQL on each storage, timed',
    usage: SEED_USAGE,
    what: 'the databases',
    parse(argv) {
      const { articles, kinds } = parseSeedOptions(argv);
      return async () => (require('./seed-at-size') as typeof Seeding).timeSeeding(articles, kinds);
    },
  },
  {
    name: 'explain',
    summary: "the plans of the repository's statements at N articles",
    usage: EXPLAIN_USAGE,
    what: 'the databases',
    parse(argv) {
      const { values } = parseStrict(argv, { ...HELP, articles: { type: 'string', default: '100000' } }, EXPLAIN_USAGE);
      const articles = positiveInteger('--articles', values.articles, EXPLAIN_USAGE);
      return async () => (require('./explain') as typeof Explain).explainPlans(articles);
    },
  },
  {
    name: 'profile',
    summary: 'one scenario on a service under --cpu-prof, and where its CPU went',
    usage: PROFILE_USAGE,
    what: 'the service and the database',
    parse(argv) {
      const options = parseProfileOptions(argv);
      return async () => (require('./profile') as typeof Profiling).profileScenario(options);
    },
  },
  {
    name: 'profile-summary',
    summary: 'where the CPU time of a .cpuprofile file went',
    usage: PROFILE_SUMMARY_USAGE,
    what: 'nothing',
    parse(argv) {
      const { values, positionals } = parseStrict(
        argv,
        { ...HELP, top: { type: 'string', default: '25' } },
        PROFILE_SUMMARY_USAGE,
        1,
      );
      const file = required(positionals[0], 'a .cpuprofile file', PROFILE_SUMMARY_USAGE);
      const top = positiveInteger('--top', values.top, PROFILE_SUMMARY_USAGE);
      return async () => (require('./profile-summary') as typeof ProfileSummary).printProfileSummary(file, top);
    },
  },
  {
    name: 'report',
    summary: 'prints the tables of an http results file again',
    usage: REPORT_USAGE,
    what: 'nothing',
    parse(argv) {
      const { positionals } = parseStrict(argv, HELP, REPORT_USAGE, 1);
      const file = required(positionals[0], 'a results file', REPORT_USAGE);
      return async () => (require('./report-file') as typeof ReportFile).printResultsFile(file);
    },
  },
];

export function parseSeedOptions(argv: readonly string[]): {
  articles: number;
  kinds: ('postgres' | 'sqlite')[];
} {
  const { values } = parseStrict(
    argv,
    { ...HELP, articles: { type: 'string', default: '100000' }, kinds: { type: 'string', default: 'postgres,sqlite' } },
    SEED_USAGE,
  );
  return {
    articles: positiveInteger('--articles', values.articles, SEED_USAGE),
    kinds: values.kinds.split(',').map((kind) => oneOf('--kinds', kind, STORAGES, SEED_USAGE)),
  };
}

export function parseMigrateLiveOptions(argv: readonly string[]): MigrateLiveBench.MigrateLiveOptions {
  const { values } = parseStrict(
    argv,
    {
      ...HELP,
      articles: { type: 'string', default: '100000' },
      clients: { type: 'string', default: '20' },
      previous: { type: 'string', default: 'HEAD' },
    },
    MIGRATE_LIVE_USAGE,
  );
  return {
    articles: positiveInteger('--articles', values.articles, MIGRATE_LIVE_USAGE),
    clients: positiveInteger('--clients', values.clients, MIGRATE_LIVE_USAGE),
    previous: values.previous,
  };
}

export function parseRestoreOptions(argv: readonly string[]): RestoreBench.RestoreBenchOptions {
  const { values } = parseStrict(
    argv,
    {
      ...HELP,
      articles: { type: 'string', default: '100000' },
      seed: { type: 'string', default: 'api' },
      instances: { type: 'string', default: '2' },
    },
    RESTORE_USAGE,
  );
  return {
    articles: positiveInteger('--articles', values.articles, RESTORE_USAGE),
    seed: oneOf('--seed', values.seed, SEED_WAYS, RESTORE_USAGE),
    instances: positiveInteger('--instances', values.instances, RESTORE_USAGE),
  };
}

export function parseProfileOptions(argv: readonly string[]): {
  scenario: string;
  seconds: number;
  storage: 'postgres' | 'sqlite';
  key: boolean;
  stackFloor: string | null;
} {
  const { values } = parseStrict(
    argv,
    {
      ...HELP,
      scenario: { type: 'string', default: 'get' },
      seconds: { type: 'string', default: '10' },
      storage: { type: 'string', default: 'postgres' },
      key: { type: 'boolean', default: false },
      'stack-floor': { type: 'string' },
    },
    PROFILE_USAGE,
  );
  const storage = oneOf('--storage', values.storage, STORAGES, PROFILE_USAGE);
  if (values.key && storage !== 'postgres') throw new UsageError('--key needs --storage postgres', PROFILE_USAGE);
  return {
    scenario: oneOf('--scenario', values.scenario, LOAD_SCENARIOS, PROFILE_USAGE),
    seconds: positiveInteger('--seconds', values.seconds, PROFILE_USAGE),
    storage,
    key: values.key,
    stackFloor: values['stack-floor'] ?? null,
  };
}

/** Refuses a scenario key the subcommand does not know, before anything starts. */
function withKnownScenarios(options: BenchOptions, known: readonly string[], usage: string): BenchOptions {
  for (const key of options.scenarios) oneOf('--scenarios', key, known, usage);
  return options;
}

function required(value: string | undefined, what: string, usage: string): string {
  if (value === undefined) throw new UsageError(`expected ${what}`, usage);
  return value;
}
