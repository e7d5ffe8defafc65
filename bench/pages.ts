import os from 'node:os';
import path from 'node:path';
import { type ApiSeededDataset, seedThroughApi } from './api-seed';
import { type BenchDatabase, openPostgres, openPostgresServer, openSqlite } from './databases';
import { type FullListFigures, readFullList, timedWholeList } from './full-list';
import { SERVICE_ENV } from './http-client';
import { measure, type RunFigures } from './measure';
import type { BenchOptions } from './options';
import {
  PAGE_SCENARIOS,
  SEARCH_SCENARIO_KEYS,
  SPREAD_CLIENTS,
  SPREAD_POSITIONS,
  SPREAD_SCENARIOS,
} from './page-scenarios';
import { RAW_FLOOR_MAIN, SERVICE } from './paths';
import { type ServerProcess, startServer, startService, withPeakRss } from './processes';
import { describeMachine, loadAverage, median } from './report';
import { writeResultsFile } from './results-file';
import { cleanUp, cleanups } from './run-main';
import { type SeededDataset, seedAtSize } from './seed-at-size';

const COMPARE = process.env.BENCH_COMPARE_MAIN ? path.resolve(process.env.BENCH_COMPARE_MAIN) : null;
const SIZES = { small: 1_000, large: 100_000 } as const;
const FULL_LIST_READS = 3;

interface Sized {
  size: number;
  database: BenchDatabase;
  dataset: SeededDataset;
  service: ServerProcess;
}

interface StorageReport {
  storage: string;
  seedSeconds: Record<number, number>;
  idleRssMb: Record<number, number>;
  pages: PageRuns[];
  fullList: FullListRead[];
  /** The same reads of BENCH_COMPARE_MAIN's build, in turn with these. */
  comparedFullList?: FullListRead[];
  /** PostgreSQL: the raw floor's streamed list (BASELINE_LIST=stream), read in turn with these. */
  floorFullList?: FullListRead[];
  /** Pages at spread positions after a seed through the API (issue 18). */
  spread?: { seedSeconds: Record<number, number>; pages: PageRuns[]; firstFullList?: FullListRead };
}

type FullListRead = FullListFigures & { peakRssMb: number; loadAverage: number };

interface PageRuns {
  key: string;
  title: string;
  runs: Record<number, RunFigures[]>;
  ratios: number[];
  /** BENCH_COMPARE_MAIN's build on the large database, run in turn with the service's runs. */
  comparedRuns?: RunFigures[];
  /** Per round: the service's large-size req/s over the compared build's. */
  comparedRatios?: number[];
  /** The 1-minute load average when each run (either size) began. */
  loadAverages?: number[];
}

/**
 * `npm run bench -- pages`: issue 13's size checks. On each storage, two databases seeded
 * straight into the schema (1,000 and 100,000 articles) with a service on each; a page of 20
 * and a tag-filtered page of 20 are loaded on the small one, then the large one, round after
 * round, and the throughput ratio large / small should stay near 1 (flat). Then the full list
 * of the large one, read whole: time to first byte, total, and the service's peak RSS; on
 * PostgreSQL in turn with the raw floor's streamed list (the same answer without the layers).
 * Then (issue 18) two more databases per storage, seeded through the API, where 8 clients ask
 * for pages at 200 positions spread over the id range: the same comparison from outside.
 */
export async function runPages(options: BenchOptions): Promise<void> {
  const scenarios = options.scenarios.length
    ? PAGE_SCENARIOS.filter((s) => options.scenarios.includes(s.key))
    : PAGE_SCENARIOS;
  const fullList = options.scenarios.length === 0 || options.scenarios.includes('full-list');
  const spread = options.scenarios.length
    ? SPREAD_SCENARIOS.filter((s) => options.scenarios.includes(s.key))
    : SPREAD_SCENARIOS;
  console.log(`Machine: ${describeMachine()}; load average ${loadAverage()}`);
  const reports: StorageReport[] = [];
  if (options.postgres) {
    const server = await openPostgresServer();
    cleanups.push(() => server.destroy());
    // The server stays up between the passes (stopping it there left the spread pass none).
    const serverOnly = cleanups.length;
    const report = await storagePass('PostgreSQL', () => openPostgres(server), options, scenarios, fullList, true);
    await cleanUp(serverOnly);
    if (spread.length > 0) report.spread = await spreadPass('PostgreSQL', () => openPostgres(server), options, spread);
    reports.push(report);
    await cleanUp();
  }
  if (options.sqlite) {
    const report = await storagePass('SQLite', openSqlite, options, scenarios, fullList, false);
    await cleanUp();
    if (spread.length > 0) report.spread = await spreadPass('SQLite', openSqlite, options, spread);
    reports.push(report);
    await cleanUp();
  }
  for (const report of reports) console.log(`\n${format(report)}`);
  console.log(`\nLoad average at the end: ${loadAverage()}`);
  const file = writeResultsFile('pages', { machine: describeMachine(), options, reports });
  console.log(`Figures written to ${file}`);
}

async function storagePass(
  storage: string,
  open: () => Promise<BenchDatabase>,
  options: BenchOptions,
  scenarios: typeof PAGE_SCENARIOS,
  fullList: boolean,
  /** Whether the raw floor (PostgreSQL only) reads the whole list too. */
  listFloor: boolean,
): Promise<StorageReport> {
  if (scenarios.length === 0 && !fullList) {
    return { storage, seedSeconds: {}, idleRssMb: {}, pages: [], fullList: [] };
  }
  const sized: Sized[] = [];
  for (const size of [SIZES.small, SIZES.large]) {
    const database = await open();
    cleanups.push(() => database.close());
    const dataset = await seedAtSize(database, size);
    const service = await startService(`service ${size}`, SERVICE, { ...SERVICE_ENV, DATABASE_URL: database.url });
    cleanups.push(() => service.stop());
    console.log(
      `${storage}: ${size} articles (${dataset.visible} visible) seeded in ${dataset.seconds.toFixed(1)} s; service RSS ${mb(service.rssBytes())} MB`,
    );
    sized.push({ size, database, dataset, service });
  }
  const report: StorageReport = {
    storage: `${storage} (${sized[0]?.database.description})`,
    seedSeconds: Object.fromEntries(sized.map((s) => [s.size, s.dataset.seconds])),
    idleRssMb: Object.fromEntries(sized.map((s) => [s.size, mb(s.service.rssBytes())])),
    pages: scenarios.map((s) => ({ key: s.key, title: s.title, runs: {}, ratios: [] })),
    fullList: [],
  };
  const large = sized[1] as Sized;
  // BENCH_COMPARE_MAIN: another build's service on the same large database, measured in turn
  // with this one (its pages after the service's large runs, its whole list read by turns), so
  // that both see the same machine.
  const compared = COMPARE
    ? await startService('service compared', COMPARE, {
        ...SERVICE_ENV,
        ...options.compareEnv,
        DATABASE_URL: large.database.url,
      })
    : null;
  if (compared) cleanups.push(() => compared.stop());
  for (let round = 1; round <= options.rounds; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      const entry = report.pages[index] as StorageReport['pages'][number];
      const targets: { size: number; label: string; service: ServerProcess; dataset: SeededDataset }[] = sized.map(
        ({ size, dataset, service }) => ({ size, label: 'articles', service, dataset }),
      );
      if (compared) targets.push({ size: SIZES.large, label: 'compared', service: compared, dataset: large.dataset });
      // In odd rounds small first, in even ones the reverse: an order effect cancels out.
      for (const { size, label, dataset, service } of round % 2 ? targets : [...targets].reverse()) {
        const figures = await measure(service.url, scenario, dataset, options);
        service.checkAlive();
        if (service === compared) entry.comparedRuns = [...(entry.comparedRuns ?? []), figures];
        else entry.runs[size] = [...(entry.runs[size] ?? []), figures];
        console.log(
          `${storage} round ${round}/${options.rounds} ${scenario.title.padEnd(36)} ${String(size).padStart(6)} ${label.padEnd(8)} ` +
            `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${figures.p50Ms.toFixed(1)} ms  ` +
            `p99 ${figures.p99Ms.toFixed(1)} ms  errors ${figures.errors}`,
        );
      }
      const small = entry.runs[SIZES.small]?.[round - 1]?.requestsPerSecond ?? Number.NaN;
      const largeRate = entry.runs[SIZES.large]?.[round - 1]?.requestsPerSecond ?? Number.NaN;
      entry.ratios.push(largeRate / small);
      const comparedRate = entry.comparedRuns?.[round - 1]?.requestsPerSecond;
      if (comparedRate) entry.comparedRatios = [...(entry.comparedRatios ?? []), largeRate / comparedRate];
    }
  }
  if (fullList) {
    // Started now, so that its first read is its first after a start, as the service's is when
    // only the full list runs.
    const floor = listFloor
      ? await startServer('raw floor', RAW_FLOOR_MAIN, { DATABASE_URL: large.database.url, BASELINE_LIST: 'stream' })
      : null;
    if (floor) cleanups.push(() => floor.stop());
    const readers: { label: string; service: ServerProcess; reads: FullListRead[] }[] = [
      { label: 'service', service: large.service, reads: report.fullList },
    ];
    if (compared) {
      report.comparedFullList = [];
      readers.push({ label: 'service compared', service: compared, reads: report.comparedFullList });
    }
    if (floor) {
      report.floorFullList = [];
      readers.push({ label: 'raw floor', service: floor, reads: report.floorFullList });
    }
    for (let read = 1; read <= FULL_LIST_READS; read++) {
      for (const { label, service, reads } of read % 2 ? readers : [...readers].reverse()) {
        // A compared build may be one from before publishing: its articles have no status or slug.
        const [figures, peak] = await withPeakRss(service, () =>
          readFullList(service.url, large.dataset, label !== 'service compared'),
        );
        service.checkAlive();
        reads.push({ ...figures, peakRssMb: mb(peak), loadAverage: os.loadavg()[0] as number });
        console.log(
          `${storage} ${label} full list of ${figures.articles} articles (${(figures.bytes / 2 ** 20).toFixed(1)} MB): ` +
            `headers ${figures.headersMs.toFixed(0)} ms, first byte ${figures.firstByteMs.toFixed(0)} ms, ` +
            `total ${figures.totalMs.toFixed(0)} ms, peak RSS ${mb(peak)} MB, load ${loadAverage()}`,
        );
      }
    }
    // After the timed reads (the first of each stays a first after a start): the same bytes.
    if (floor) await checkSameWholeList(large.service.url, floor.url);
  }
  return report;
}

/** The raw floor's streamed list is the service's, byte for byte (as sanity.ts checks the http floors). */
async function checkSameWholeList(serviceUrl: string, floorUrl: string): Promise<void> {
  const service = await timedWholeList(serviceUrl, 300_000);
  const floor = await timedWholeList(floorUrl, 300_000);
  if (service.text !== floor.text)
    throw new Error(
      `the raw floor's whole list (${floor.text.length} characters) is not the service's (${service.text.length})`,
    );
}

/**
 * Issue 18: on each size a fresh database, migrated and seeded by the service itself through
 * `POST /article/create`; then SPREAD_CLIENTS connections ask for the SPREAD_POSITIONS pages in
 * turn, the sizes alternating which goes first, as the issue 13 pages do.
 */
async function spreadPass(
  storage: string,
  open: () => Promise<BenchDatabase>,
  options: BenchOptions,
  scenarios: typeof SPREAD_SCENARIOS,
): Promise<NonNullable<StorageReport['spread']>> {
  const sized: { size: number; dataset: ApiSeededDataset; service: ServerProcess }[] = [];
  for (const size of [SIZES.small, SIZES.large]) {
    const database = await open();
    cleanups.push(() => database.close());
    const service = await startService(`service ${size}`, SERVICE, { ...SERVICE_ENV, DATABASE_URL: database.url });
    cleanups.push(() => service.stop());
    const dataset = await seedThroughApi(service.url, size, (done) =>
      console.log(`${storage}: ${done} of ${size} articles created through the API; load average ${loadAverage()}`),
    );
    console.log(
      `${storage}: ${size} articles (${dataset.visible} visible) created through the API in ${dataset.seconds.toFixed(0)} s`,
    );
    sized.push({ size, dataset, service });
  }
  // Issue 27: the first whole list after the creates, before anything else reads their rows
  // (PostgreSQL then still sets their hint bits, and the list pays for it).
  const large = sized[1] as (typeof sized)[number];
  const [first, peak] = await withPeakRss(large.service, () => readFullList(large.service.url, large.dataset));
  const firstFullList: FullListRead = { ...first, peakRssMb: mb(peak), loadAverage: os.loadavg()[0] as number };
  console.log(
    `${storage}: the first full list after the API seed, ${first.articles} articles: first byte ` +
      `${first.firstByteMs.toFixed(0)} ms, total ${first.totalMs.toFixed(0)} ms, service peak RSS ${mb(peak)} MB`,
  );
  const pages: PageRuns[] = scenarios.map((s) => ({
    key: s.key,
    title: s.title,
    runs: {},
    ratios: [],
    loadAverages: [],
  }));
  const settings = { ...options, connections: SPREAD_CLIENTS };
  for (let round = 1; round <= options.rounds; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      const entry = pages[index] as PageRuns;
      for (const { size, dataset, service } of round % 2 ? sized : [...sized].reverse()) {
        entry.loadAverages?.push(os.loadavg()[0] as number);
        const figures = await measure(service.url, scenario, dataset, settings);
        service.checkAlive();
        entry.runs[size] = [...(entry.runs[size] ?? []), figures];
        console.log(
          `${storage} round ${round}/${options.rounds} ${scenario.title.padEnd(44)} ${String(size).padStart(6)} articles ` +
            `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${figures.p50Ms.toFixed(1)} ms  ` +
            `p99 ${figures.p99Ms.toFixed(1)} ms  errors ${figures.errors}  load ${loadAverage()}`,
        );
      }
      const small = entry.runs[SIZES.small]?.[round - 1]?.requestsPerSecond ?? Number.NaN;
      const large = entry.runs[SIZES.large]?.[round - 1]?.requestsPerSecond ?? Number.NaN;
      entry.ratios.push(large / small);
    }
  }
  return { seedSeconds: Object.fromEntries(sized.map((s) => [s.size, s.dataset.seconds])), pages, firstFullList };
}

function pageTable(pages: readonly PageRuns[]): string[] {
  const lines = [
    `| scenario | ${SIZES.small} articles req/s | p99 ms | ${SIZES.large} articles req/s | p99 ms | ${SIZES.large} / ${SIZES.small} (rounds) | target ≥ 0.67 | errors |`,
    '| :-- | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const page of pages) {
    const small = page.runs[SIZES.small] ?? [];
    const large = page.runs[SIZES.large] ?? [];
    const ratio = median(page.ratios);
    const errors = [...small, ...large].reduce((sum, run) => sum + run.errors, 0);
    lines.push(
      `| ${page.title} | ${median(small.map((r) => r.requestsPerSecond)).toFixed(0)} | ${median(small.map((r) => r.p99Ms)).toFixed(0)} | ` +
        `${median(large.map((r) => r.requestsPerSecond)).toFixed(0)} | ${median(large.map((r) => r.p99Ms)).toFixed(0)} | ` +
        `${ratio.toFixed(2)} (${page.ratios.map((r) => r.toFixed(2)).join(', ')}) | ${ratio >= 1 / 1.5 ? 'met' : 'NOT met'} | ${errors} |`,
    );
  }
  return lines;
}

function format(report: StorageReport): string {
  const lines = [`### ${report.storage}`, ''];
  // Only the spread pass ran: nothing was seeded in SQL.
  if (Object.keys(report.seedSeconds).length > 0)
    lines.push(
      `Seeded in ${Object.entries(report.seedSeconds)
        .map(([size, seconds]) => `${size} articles ${seconds.toFixed(1)} s`)
        .join(', ')}; idle service RSS ${Object.entries(report.idleRssMb)
        .map(([size, rss]) => `${rss} MB at ${size}`)
        .join(', ')}.`,
      '',
    );
  if (report.pages.length > 0) lines.push(...pageTable(report.pages), '', ...searchRatios(report), '');
  for (const [label, reads] of [
    ['service', report.fullList],
    ['service compared', report.comparedFullList ?? []],
    ['raw floor', report.floorFullList ?? []],
  ] as const) {
    if (reads.length === 0) continue;
    const first = reads[0] as FullListFigures;
    lines.push(
      `Full list, ${label} (${first.articles} articles, ${(first.bytes / 2 ** 20).toFixed(1)} MB), ${reads.length} reads, medians: ` +
        `first byte ${median(reads.map((r) => r.firstByteMs)).toFixed(0)} ms, total ${median(reads.map((r) => r.totalMs)).toFixed(0)} ms ` +
        `(${reads.map((r) => r.totalMs.toFixed(0)).join(', ')}), peak RSS ${Math.max(...reads.map((r) => r.peakRssMb))} MB, ` +
        `load ${reads.map((r) => r.loadAverage.toFixed(1)).join(', ')} (issue 39 targets: first byte ≤ 50 ms, total ≤ 1,500 ms, RSS ≤ 150 MB).`,
    );
  }
  const floorReads = report.floorFullList ?? [];
  if (floorReads.length > 0) {
    // Read by read: the reads alternate, so each pair saw the same machine.
    const ratios = report.fullList.map((read, index) => read.totalMs / (floorReads[index]?.totalMs ?? Number.NaN));
    lines.push(
      `Full list, service total / raw floor's, read by read: ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')}).`,
    );
  }
  if (COMPARE) {
    for (const page of report.pages.filter((p) => p.comparedRuns)) {
      const ratios = page.comparedRatios ?? [];
      lines.push(
        `${page.title} at ${SIZES.large}, service / compared req/s: ${median(ratios).toFixed(2)} ` +
          `(${ratios.map((r) => r.toFixed(2)).join(', ')}); compared ${median((page.comparedRuns ?? []).map((r) => r.requestsPerSecond)).toFixed(0)} req/s`,
      );
    }
    lines.push(`service compared: ${COMPARE}`);
  }
  if (report.spread) {
    const { seedSeconds, pages } = report.spread;
    const loads = pages.flatMap((page) => page.loadAverages ?? []);
    lines.push(
      '',
      `Spread positions (${SPREAD_POSITIONS} over the id range, ${SPREAD_CLIENTS} clients) after a seed through the API ` +
        `(${Object.entries(seedSeconds)
          .map(([size, seconds]) => `${size} articles in ${seconds.toFixed(0)} s`)
          .join(
            ', ',
          )}); load average at the runs' start ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}:`,
      '',
      ...pageTable(pages),
    );
    const first = report.spread.firstFullList;
    if (first) {
      lines.push(
        '',
        `The first full list after that seed (${first.articles} articles): first byte ${first.firstByteMs.toFixed(0)} ms, ` +
          `total ${first.totalMs.toFixed(0)} ms, service peak RSS ${first.peakRssMb} MB (issue 27: ≤ 50 ms, ≤ 1,500 ms, ≤ 150 MB).`,
      );
    }
  }
  return lines.join('\n');
}

/** Issue 18: each search page's throughput over the plain page's at 100,000, round by round. */
function searchRatios(report: StorageReport): string[] {
  const plain = report.pages.find((page) => page.key === 'page')?.runs[SIZES.large];
  if (!plain) return [];
  return report.pages
    .filter((page) => SEARCH_SCENARIO_KEYS.includes(page.key))
    .map((page) => {
      const ratios = (page.runs[SIZES.large] ?? []).map(
        (run, round) => run.requestsPerSecond / (plain[round]?.requestsPerSecond ?? Number.NaN),
      );
      const ratio = median(ratios);
      return `${page.title} at ${SIZES.large} articles / plain page, same rounds: ${ratio.toFixed(2)} (${ratios
        .map((r) => r.toFixed(2))
        .join(', ')}); target ≥ 0.33: ${ratio >= 1 / 3 ? 'met' : 'NOT met'}`;
    });
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
