import os from 'node:os';
import path from 'node:path';
import { storeBenchKey } from './bench-key';
import { type BenchDatabase, openPostgres, openPostgresServer, openSqlite } from './databases';
import { createAll, DATASET, datasetBodies, type PreparedDataset, prepareDataset } from './dataset';
import { BENCH_TOKEN, SERVICE_ENV as DEFAULT_SERVICE_ENV } from './http-client';
import { inTurn } from './in-turn';
import { measure, type RunSettings } from './measure';
import type { BenchOptions } from './options';
import { startOtlpSink } from './otlp-sink';
import { EXPRESS_FLOOR_MAIN, RAW_FLOOR_MAIN, SERVICE } from './paths';
import { type ServerProcess, startServer, startService, withPeakRss } from './processes';
import {
  describeMachine,
  EXPRESS_FLOOR,
  formatPass,
  loadAverage,
  median,
  medianCpuRatio,
  medianRatio,
  type PassReport,
  RAW_FLOOR,
  totalErrors,
} from './report';
import { writeResultsFile } from './results-file';
import { cleanUp, cleanups } from './run-main';
import { checkSameAnswers } from './sanity';
import { type Scenario, selectScenarios } from './scenarios';
import { type StackFloor, startStackFloor } from './stack-floor';

const SERVICE_ENV: Record<string, string> = { ...DEFAULT_SERVICE_ENV };

/**
 * `npm run bench -- http`: the service and its two floors (bare Express 5, raw node:http) on one
 * PostgreSQL database, measured in turn (service, Express floor, raw floor, service, …) so that
 * a shared machine's noise hits them alike; then the service alone on SQLite. Prints Markdown tables, writes the figures to
 * bench/results/, and exits 1 when any answer was not a success.
 */
export async function runHttp(options: BenchOptions): Promise<void> {
  if (options.serviceNodeOptions) SERVICE_ENV.NODE_OPTIONS = options.serviceNodeOptions;

  const scenarios = selectScenarios(options.scenarios);
  const settings: RunSettings = options;
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  console.log(`Machine: ${describeMachine()}; load average ${loadAverage()}`);
  console.log(
    `${options.connections} connections, ${options.durationSeconds} s runs after ${options.warmupSeconds} s warm-up, ` +
      `dataset ${DATASET.articles} articles (${DATASET.tagsPerArticle} of ${DATASET.tags} tags, ` +
      `${DATASET.categoriesPerArticle} of ${DATASET.categories} categories, 90 % visible)\n`,
  );

  const passes: PassReport[] = [];
  if (options.postgres) passes.push(await postgresPass(options, scenarios, settings));
  if (options.sqlite) passes.push(await sqlitePass(options, scenarios, settings));

  for (const pass of passes) console.log(`\n${formatPass(pass)}\n`);
  console.log(`Load average at the end: ${loadAverage()}`);
  const file = writeResultsFile('bench', {
    startedAt,
    options,
    machine: describeMachine(),
    service: path.relative(process.cwd(), SERVICE),
    loadAverage: { start: loadAverageAtStart, end: os.loadavg() },
    passes,
  });
  console.log(`Figures written to ${file}`);
  const errors = passes.reduce((sum, pass) => sum + totalErrors(pass), 0);
  if (errors > 0) {
    console.error(`FAILED: ${errors} answers were errors (not 2xx with statusCode 10000)`);
    process.exitCode = 1;
  }
}

async function postgresPass(options: BenchOptions, scenarios: Scenario[], settings: RunSettings): Promise<PassReport> {
  const postgres = await openPostgresServer();
  cleanups.push(() => postgres.destroy());
  const database = await open(openPostgres(postgres));
  console.log(`PostgreSQL pass on ${database.description}`);
  const { API_TOKEN: _token, ...withoutToken } = SERVICE_ENV;
  const service = await start(
    startService('service', SERVICE, {
      ...(options.key ? withoutToken : SERVICE_ENV),
      ...(await tracingEnv(options)),
      DATABASE_URL: database.url,
    }),
  );
  // The service has migrated the schema: the key can be stored.
  if (options.key) await storeBenchKey(database.url);
  // The floors share the store and SQL of bench/baseline/; the service has migrated the schema.
  const floorEnv = { API_TOKEN: BENCH_TOKEN, DATABASE_URL: database.url, BASELINE_READS: options.baselineReads };
  const floors = options.baseline
    ? [
        await start(startServer(EXPRESS_FLOOR, EXPRESS_FLOOR_MAIN, floorEnv)),
        await start(startServer(RAW_FLOOR, RAW_FLOOR_MAIN, floorEnv)),
      ]
    : [];
  const baseline = floors[1] ?? null;
  const stackFloor = options.stackFloor === null ? null : await startStackFloorOn(options.stackFloor, postgres);
  // Measured beside the floors, but it answers from its own schema: not checked against the service.
  const measuredFloors = stackFloor ? [...floors, stackFloor.server] : floors;
  const servers = [service, ...measuredFloors];
  const notes: string[] = [];
  if (baseline) {
    notes.push(
      options.baselineReads === 'links'
        ? 'The floors read an article, then its links in one batched query (the shape issue 4 gives).'
        : "The floors read with one statement, each article's tags and categories aggregated as JSON.",
    );
  }
  if (options.workers !== null) {
    const label = `service WORKERS=${options.workers}`;
    const workers = await start(
      startService(label, SERVICE, {
        ...SERVICE_ENV,
        DATABASE_URL: database.url,
        WORKERS: String(options.workers),
      }),
    );
    servers.push(workers);
    const processes = workers.processCount();
    notes.push(
      processes > 1
        ? `${label} ran ${processes} processes (primary and workers).`
        : `${label}: the service ran a single process, so it ignores WORKERS: that column measures one worker again.`,
    );
  }

  if (options.otlp) notes.push('service: traced, every span exported to an OTLP sink in the bench process.');
  if (options.key) notes.push("service: no API_TOKEN; the bench's token is a writer's key (author role).");
  let compared: ServerProcess | null = null;
  if (options.compare !== null) {
    const label = 'service compared';
    compared = await start(
      startService(label, path.resolve(options.compare), {
        ...SERVICE_ENV,
        DATABASE_URL: database.url,
        ...options.compareEnv,
      }),
    );
    servers.push(compared);
    const env = Object.entries(options.compareEnv).map(([name, value]) => ` ${name}=${value}`);
    notes.push(`${label}: ${options.compare}${env.join('')}`);
  }

  const dataset = await prepare(service.url, database);
  await giveServiceHistory(dataset, database, compared, floors, stackFloor);
  if (baseline) {
    for (const floor of floors) {
      for (const build of compared === null ? [service] : [service, compared]) {
        await checkSameAnswers(build.url, floor.url, dataset);
        await database.removeArticlesAfter(dataset.lastId);
      }
    }
    console.log('Both floors answer exactly what the service answers (articles, list, create, update).\n');
  } else {
    notes.push('The service alone (--no-baseline): the figures that count are its same-run ratios.');
  }

  if (stackFloor)
    notes.push(`stack floor: ${options.stackFloor}, on a database of its own seeded alike (get, create-ids only).`);
  const pass = await runAlternating(
    `PostgreSQL`,
    servers,
    scenarios,
    options.rounds,
    dataset,
    database,
    settings,
    stackFloor,
  );
  if (options.workers !== null) {
    for (const scenario of pass.scenarios) {
      const ratio = medianRatio(
        scenario.runs[servers[1 + measuredFloors.length]?.label as string] ?? [],
        scenario.runs.service ?? [],
      );
      notes.push(`${scenario.title}: WORKERS=${options.workers} / 1 worker = ${ratio.toFixed(2)}`);
    }
  }
  notes.push(...sameRunRatios(pass));
  for (const label of servers.slice(1 + measuredFloors.length).map((server) => server.label)) {
    for (const scenario of pass.scenarios) {
      const ratio = medianRatio(scenario.runs.service ?? [], scenario.runs[label] ?? []);
      const cpu = medianCpuRatio(scenario.runs.service ?? [], scenario.runs[label] ?? []);
      notes.push(
        `${scenario.title}: service / ${label} = ${ratio.toFixed(3)} req/s, ${cpu.toFixed(3)} CPU time per answer (medians of the per-round ratios)`,
      );
    }
  }
  pass.notes.push(...notes);
  await cleanUp();
  return pass;
}

/**
 * Targets on the service's own figures of the same run: a create with a new key costs at most
 * 25 % more than a plain create (ratio of req/s ≥ 0.8), and a replay at most what a get by id
 * costs (ratio ≥ 1.0), from issue 16; a whole list revalidated with its ETag (304) answers at
 * least 3 times as many requests as the whole list (200), from issue 27. Medians of the
 * per-round ratios, rounds in brackets.
 */
function sameRunRatios(pass: PassReport): string[] {
  const runsOf = (key: string) => pass.scenarios.find((scenario) => scenario.key === key)?.runs.service;
  const notes: string[] = [];
  for (const [numerator, denominator, target, label] of [
    ['create-key', 'create', 0.8, 'create with a new key / create'],
    ['replay', 'get', 1.0, 'replayed create / get by id'],
    ['list-304', 'list', 3.0, 'whole list revalidated (304) / whole list (200)'],
  ] as const) {
    const top = runsOf(numerator);
    const bottom = runsOf(denominator);
    if (!top || !bottom) continue;
    const rounds = top.map((run, round) =>
      (run.requestsPerSecond / (bottom[round]?.requestsPerSecond ?? Number.NaN)).toFixed(2),
    );
    const ratio = medianRatio(top, bottom);
    notes.push(
      `Service, same run: ${label} = ${ratio.toFixed(2)} (${rounds.join(', ')}); target ≥ ${target.toFixed(1)}: ${ratio >= target ? 'met' : 'NOT met'}.`,
    );
  }
  return notes;
}

async function sqlitePass(options: BenchOptions, scenarios: Scenario[], settings: RunSettings): Promise<PassReport> {
  const database = await open(openSqlite());
  console.log(`SQLite pass on ${database.description}`);
  const service = await start(
    startService('service', SERVICE, {
      ...SERVICE_ENV,
      ...(await tracingEnv(options)),
      DATABASE_URL: database.url,
    }),
  );
  const dataset = await prepare(service.url, database);
  const pass = await runAlternating('SQLite', [service], scenarios, 1, dataset, database, settings);
  await cleanUp();
  return pass;
}

/** Each round runs every scenario on each server in turn; write runs are undone after each. */
async function runAlternating(
  storage: string,
  servers: ServerProcess[],
  scenarios: Scenario[],
  rounds: number,
  dataset: PreparedDataset,
  database: BenchDatabase,
  settings: RunSettings,
  stackFloor: StackFloor | null = null,
): Promise<PassReport> {
  const pass: PassReport = {
    storage: `${storage} (${database.description}), ${settings.connections} connections, ${rounds} round(s) of ${settings.durationSeconds} s, medians`,
    targets: servers.map((server) => server.label),
    scenarios: scenarios.map((s) => ({
      key: s.key,
      title: s.title,
      target: s.target,
      stackFloorTarget: s.stackFloorTarget,
      runs: {},
    })),
    peakRssMb: Object.fromEntries(servers.map((server) => [server.label, 0])),
    notes: [],
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      for (const server of scenario.serviceOnly ? servers.slice(0, 1) : inTurn(servers, round)) {
        const onStackFloor = server === stackFloor?.server;
        // The stack floor has routes of its own: its requests for the scenario, or none (skipped).
        const requests = onStackFloor ? stackFloor.requestsFor(scenario.key) : null;
        if (onStackFloor && requests === null) continue;
        const asked = requests ? { ...scenario, requests: () => requests } : scenario;
        const [measured, peak] = await withPeakRss(server, () =>
          measure(server.url, asked, dataset, settings, server.cpuSeconds),
        );
        server.checkAlive();
        const figures = { ...measured, peakRssMb: Math.round(peak / 2 ** 20) };
        if (scenario.addsArticles)
          await (onStackFloor ? stackFloor.removeCreated() : database.removeArticlesAfter(dataset.lastId));
        const runs = pass.scenarios[index]?.runs as Record<string, (typeof figures)[]>;
        runs[server.label] = [...(runs[server.label] ?? []), figures];
        pass.peakRssMb[server.label] = Math.max(pass.peakRssMb[server.label] ?? 0, peak / 2 ** 20);
        console.log(
          `${storage} round ${round}/${rounds} ${scenario.title.padEnd(32)} ${server.label.padEnd(18)} ` +
            `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${figures.p50Ms.toFixed(1)} ms  ` +
            `p99 ${figures.p99Ms.toFixed(1)} ms  cpu ${figures.cpuUsPerRequest?.toFixed(0) ?? '?'} µs/req  ` +
            `db ${figures.databaseCpuUsPerRequest?.toFixed(0) ?? '?'} µs/req  ` +
            `errors ${figures.errors}  rss ${(peak / 2 ** 20).toFixed(0)} MB`,
        );
      }
    }
  }
  pass.notes.push(...cpuPerAnswer(pass));
  return pass;
}

/** Each target's CPU µs per answer, its own + PostgreSQL's (medians of the rounds): where the machine's time went. */
function cpuPerAnswer(pass: PassReport): string[] {
  return pass.scenarios.map((scenario) => {
    const cells = Object.entries(scenario.runs).map(([target, runs]) => {
      const own = median(runs.map((run) => run.cpuUsPerRequest ?? Number.NaN));
      const database = median(runs.map((run) => run.databaseCpuUsPerRequest ?? Number.NaN));
      return `${target} ${own.toFixed(0)} + ${database.toFixed(0)}`;
    });
    return `${scenario.title}, CPU µs per answer (server + PostgreSQL): ${cells.join('; ')}.`;
  });
}

/** With --otlp, the service's OTLP endpoint: a sink in this process, closed with the pass. */
async function tracingEnv(options: BenchOptions): Promise<Record<string, string>> {
  if (!options.otlp) return {};
  const sink = await startOtlpSink();
  cleanups.push(async () => {
    const { requests, bytes } = sink.received();
    console.log(`OTLP sink: ${requests} exports, ${(bytes / 2 ** 20).toFixed(1)} MiB of spans received`);
    await sink.close();
  });
  return { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint };
}

async function startStackFloorOn(directory: string, postgres: Awaited<ReturnType<typeof openPostgresServer>>) {
  const stackFloor = await startStackFloor(directory, postgres);
  cleanups.push(() => stackFloor.close());
  return stackFloor;
}

async function open(database: Promise<BenchDatabase>): Promise<BenchDatabase> {
  const opened = await database;
  cleanups.push(() => opened.close());
  return opened;
}

/** Stops the server at the end of the run. */
async function start(starting: Promise<ServerProcess>): Promise<ServerProcess> {
  const server = await starting;
  cleanups.push(() => server.stop());
  return server;
}

/**
 * Every other server measured gets the service's history before it is measured: as many creates
 * as the dataset took, then removed (a compared build writes the dataset itself, and the sanity
 * checks run on it too). A copy of the service that wrote the dataset answers gets more slowly
 * after (its heap, its code's inline caches): two copies of one build with different histories
 * measured 0.937 req/s on a get, same run, 2026-11-28; the stack floor's two 0.99.
 */
async function giveServiceHistory(
  dataset: PreparedDataset,
  database: BenchDatabase,
  compared: ServerProcess | null,
  floors: ServerProcess[],
  stackFloor: StackFloor | null,
): Promise<void> {
  if (compared !== null) await prepareDataset(compared.url);
  for (const floor of floors) await createAll(floor.url, datasetBodies());
  await database.removeArticlesAfter(dataset.lastId);
  await stackFloor?.giveHistory();
}

async function prepare(url: string, database: BenchDatabase): Promise<PreparedDataset> {
  const started = Date.now();
  const dataset = await prepareDataset(url);
  await database.removeArticlesAfter(dataset.lastId);
  console.log(
    `Dataset: ${dataset.ids.length} articles, ${dataset.visible} visible, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return dataset;
}
