import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeBenchKey } from './bench-key';
import { openPostgres, openPostgresServer, openSqlite } from './databases';
import { type PreparedDataset, prepareDataset } from './dataset';
import { SERVICE_ENV } from './http-client';
import { measure } from './measure';
import { RESULTS, SERVICE } from './paths';
import { type ServerProcess, startService } from './processes';
import { type CpuProfile, componentsOf } from './profile-components';
import { summarizeProfile } from './profile-summary';
import { type Scenario, selectScenarios } from './scenarios';
import { startStackFloor } from './stack-floor';

/** What `profile` runs: one scenario, for so many seconds, on one storage. */
export interface ProfileOptions {
  scenario: string;
  seconds: number;
  storage: 'postgres' | 'sqlite';
  /** The bench's token is a writer's key (no API_TOKEN): the key path, profiled. */
  key: boolean;
  /** The stack floor's directory: profiled after the service, on PostgreSQL (stack-floor.ts). */
  stackFloor: string | null;
}

const PROFILES = path.join(RESULTS, 'profiles');

/**
 * `npm run bench -- profile [--scenario get] [--seconds 10] [--storage postgres|sqlite]`: runs
 * one scenario against the service started with node's --cpu-prof, then prints where its CPU
 * time went, and CPU µs per answer by component (profile-components.ts), beside the stack
 * floor's with --stack-floor. The .cpuprofile files stay in bench/results/profiles/ for Chrome DevTools.
 */
export async function profileScenario(options: ProfileOptions): Promise<void> {
  const { scenario: wanted, seconds, storage, key } = options;
  const [scenario] = selectScenarios([wanted]);
  if (!scenario) throw new Error(`no scenario ${wanted}`);
  if (options.stackFloor !== null && storage !== 'postgres') throw new Error('--stack-floor needs PostgreSQL');
  const postgres = storage === 'postgres' ? await openPostgresServer() : null;
  const database = postgres ? await openPostgres(postgres) : await openSqlite();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-profile-'));
  try {
    const { API_TOKEN: _token, ...withoutToken } = SERVICE_ENV;
    const env = { ...(key ? withoutToken : SERVICE_ENV), DATABASE_URL: database.url };
    // One process prepares the data; a second one, profiled, serves only the measured load.
    const preparer = await startService('service', SERVICE, env);
    // The preparer has migrated the schema: the key can be stored.
    if (key) await storeBenchKey(database.url);
    const dataset = await prepareDataset(preparer.url).finally(() => preparer.stop());
    await database.removeArticlesAfter(dataset.lastId);
    const label = `${scenario.title} on ${storage}${key ? ' with a key' : ''}`;
    const service = await profiled(
      label,
      path.join(directory, 'service'),
      seconds,
      (nodeArgs) => startService('service', SERVICE, env, nodeArgs).then((server) => ({ server, scenario })),
      dataset,
    );
    console.log(`${summarizeProfile(service.profile, 30)}\n\nprofile: ${keep(service.file, scenario.key, storage)}\n`);
    const tables: Array<[string, Array<[string, number]>]> = [
      ['service', componentsOf(service.profile, service.answers)],
    ];
    if (options.stackFloor !== null && postgres) {
      const floorDirectory = options.stackFloor;
      const floor = await profiled(
        `${scenario.title} on the stack floor`,
        path.join(directory, 'floor'),
        seconds,
        async (nodeArgs) => {
          const stackFloor = await startStackFloor(floorDirectory, postgres, nodeArgs);
          const requests = stackFloor.requestsFor(scenario.key);
          if (requests === null) throw new Error(`the stack floor has no ${scenario.key}`);
          return {
            server: stackFloor.server,
            scenario: { ...scenario, requests: () => requests },
            close: stackFloor.close,
          };
        },
        dataset,
      );
      console.log(`stack floor profile: ${keep(floor.file, `${scenario.key}-stack-floor`, storage)}\n`);
      tables.push(['stack floor', componentsOf(floor.profile, floor.answers)]);
    }
    console.log(formatComponents(tables));
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    await database.close();
    await postgres?.destroy();
  }
}

interface Profiled {
  profile: CpuProfile;
  file: string;
  /** Every answer of the profiled process: warm-up and measured run. */
  answers: number;
}

/** Starts a server under --cpu-prof, loads it with its scenario, stops it, and reads its profile. */
async function profiled(
  label: string,
  directory: string,
  seconds: number,
  start: (nodeArgs: string[]) => Promise<{ server: ServerProcess; scenario: Scenario; close?: () => Promise<void> }>,
  dataset: PreparedDataset,
): Promise<Profiled> {
  fs.mkdirSync(directory, { recursive: true });
  const { server, scenario, close } = await start(['--cpu-prof', `--cpu-prof-dir=${directory}`]);
  let answers = 0;
  try {
    const figures = await measure(server.url, scenario, dataset, {
      connections: 32,
      durationSeconds: seconds,
      warmupSeconds: 2,
    });
    answers = figures.requests + (figures.warmupRequests ?? 0);
    console.log(`${label}: ${figures.requestsPerSecond.toFixed(0)} req/s, errors ${figures.errors}`);
  } finally {
    // The profile is written when the process exits.
    await (close ?? server.stop)();
  }
  const [file] = fs.readdirSync(directory);
  if (!file) throw new Error(`${label}: no profile written`);
  const full = path.join(directory, file);
  return { profile: JSON.parse(fs.readFileSync(full, 'utf8')) as CpuProfile, file: full, answers };
}

function keep(file: string, name: string, storage: string): string {
  fs.mkdirSync(PROFILES, { recursive: true });
  const kept = path.join(PROFILES, `${name}-${storage}-${Date.now()}.cpuprofile`);
  fs.copyFileSync(file, kept);
  return kept;
}

/** One Markdown table: CPU µs per answer by component, a column per profiled server. */
function formatComponents(tables: Array<[string, Array<[string, number]>]>): string {
  const components = [...new Set(tables.flatMap(([, rows]) => rows.map(([component]) => component)))];
  const microsOf = (rows: Array<[string, number]>, component: string) =>
    rows.find(([name]) => name === component)?.[1] ?? 0;
  const total = (rows: Array<[string, number]>) => rows.reduce((sum, [, micros]) => sum + micros, 0);
  const lines = [
    `| component | ${tables.map(([name]) => `${name} µs/answer`).join(' | ')} |`,
    `|:--|${tables.map(() => '--:').join('|')}|`,
    ...components.map(
      (component) => `| ${component} | ${tables.map(([, rows]) => microsOf(rows, component).toFixed(1)).join(' | ')} |`,
    ),
    `| **total (profiled, busy)** | ${tables.map(([, rows]) => total(rows).toFixed(1)).join(' | ')} |`,
  ];
  return lines.join('\n');
}
