import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeBenchKey } from './bench-key';
import { openPostgres, openSqlite } from './databases';
import { prepareDataset } from './dataset';
import { SERVICE_ENV } from './http-client';
import { measure } from './measure';
import { RESULTS, SERVICE } from './paths';
import { startServer } from './processes';
import { summarizeProfile } from './profile-summary';
import { selectScenarios } from './scenarios';

/** What `profile` runs: one scenario, for so many seconds, on one storage. */
export interface ProfileOptions {
  scenario: string;
  seconds: number;
  storage: 'postgres' | 'sqlite';
  /** The bench's token is a writer's key (no API_TOKEN): the key path, profiled. */
  key: boolean;
}

const PROFILES = path.join(RESULTS, 'profiles');

/**
 * `npm run bench -- profile [--scenario get] [--seconds 10] [--storage postgres|sqlite]`: runs
 * one scenario against the service started with node's --cpu-prof, then prints where its CPU
 * time went. The .cpuprofile file stays in bench/results/profiles/ for Chrome DevTools.
 */
export async function profileScenario({ scenario: wanted, seconds, storage, key }: ProfileOptions): Promise<void> {
  const [scenario] = selectScenarios([wanted]);
  if (!scenario) throw new Error(`no scenario ${wanted}`);
  const database = storage === 'sqlite' ? await openSqlite() : await openPostgres();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-profile-'));
  try {
    const { API_TOKEN: _token, ...withoutToken } = SERVICE_ENV;
    const env = { ...(key ? withoutToken : SERVICE_ENV), DATABASE_URL: database.url };
    const main = SERVICE;
    // One process prepares the data; a second one, profiled, serves only the measured load.
    const preparer = await startServer('service', main, env);
    // The preparer has migrated the schema: the key can be stored.
    if (key) await storeBenchKey(database.url);
    const dataset = await prepareDataset(preparer.url).finally(() => preparer.stop());
    await database.removeArticlesAfter(dataset.lastId);
    const service = await startServer('service', main, env, ['--cpu-prof', `--cpu-prof-dir=${directory}`]);
    try {
      const figures = await measure(service.url, scenario, dataset, {
        connections: 32,
        durationSeconds: seconds,
        warmupSeconds: 3,
      });
      console.log(
        `${scenario.title} on ${storage}${key ? ' with a key' : ''}: ${figures.requestsPerSecond.toFixed(0)} req/s, errors ${figures.errors}`,
      );
    } finally {
      // The profile is written when the process exits.
      await service.stop();
    }
    const [file] = fs.readdirSync(directory);
    if (!file) throw new Error('the service wrote no profile');
    fs.mkdirSync(PROFILES, { recursive: true });
    const kept = path.join(PROFILES, `${scenario.key}-${storage}-${Date.now()}.cpuprofile`);
    fs.copyFileSync(path.join(directory, file), kept);
    console.log(`${summarizeProfile(JSON.parse(fs.readFileSync(kept, 'utf8')), 30)}\n\nprofile: ${kept}`);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    await database.close();
  }
}
