import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { haproxyCommand } from '../scripts/topology/haproxy';
import { groupCpuTicks } from '../scripts/topology/processes';
import { settingsFromEnv } from '../scripts/topology/settings';
import type { TopologyState } from '../scripts/topology/state';
import { down, up } from '../scripts/topology/topology';
import { freePort } from '../test/support/free-port';
import { measureClosedLoop } from './closed-loop';
import { type PreparedDataset, prepareDataset } from './dataset';
import { BENCH_TOKEN, SERVICE_ENV } from './http-client';
import type { RunFigures, RunSettings } from './measure';
import type { BenchOptions } from './options';
import { BUILT_SERVICE } from './paths';
import { type ServerProcess, startServer } from './processes';
import { describeMachine, formatPass, loadAverage, medianRatio, type PassReport, summarize } from './report';
import { writeResultsFile } from './results-file';
import { cleanups } from './run-main';
import { type Scenario, selectScenarios } from './scenarios';

interface Target {
  label: string;
  url: string;
  /** Measure where the CPU goes, per component of the topology, during its runs. */
  cpu?: TopologyState;
  /** Called before each run on this target (HAProxy: which instances are in rotation). */
  prepare?: () => Promise<void>;
}

/**
 * `npm run bench -- topology`: the topology of `npm run topology` on this machine, measured
 * side by side in one run, round after round: through HAProxy with 1 and 2 instances, one
 * instance directly (the HAProxy hop), reads on the replica or the primary, PgBouncer or a
 * direct connection (the pooler hop, with and without prepared statements). docs/SCALING.md
 * quotes it.
 */
export async function runTopology(options: BenchOptions): Promise<void> {
  const scenarios = selectScenarios(options.scenarios.length > 0 ? options.scenarios : ['get', 'list', 'create']);
  console.log(`Machine: ${describeMachine()}; load average ${loadAverage()}`);

  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-bench-'));
  cleanups.push(() => down(stateDir));
  const state = await up(
    settingsFromEnv({ TOPOLOGY_DIR: stateDir, TOPOLOGY_PORT: String(await freePort()), API_TOKEN: BENCH_TOKEN }),
  );
  const instance = (label: string, env: Record<string, string>) =>
    start(label, { ...SERVICE_ENV, WORKERS: '1', ...env });
  const pgbPrimary = await instance('1 inst, PgBouncer, primary reads', {
    DATABASE_URL: state.urls.app,
    PG_PREPARED_STATEMENTS: 'false',
  });
  const direct = await instance('1 inst, direct, prepared', { DATABASE_URL: state.urls.primaryDirect });
  const directUnprepared = await instance('1 inst, direct, unprepared', {
    DATABASE_URL: state.urls.primaryDirect,
    PG_PREPARED_STATEMENTS: 'false',
  });
  const firstInstance = state.components.find((component) => component.kind === 'instance');
  if (!firstInstance) throw new Error('the topology has no instance');

  const haproxy = state.stateDir;
  const targets: Target[] = [
    { label: 'HAProxy, 2 inst', url: state.lbUrl, prepare: () => setSecondInstance(haproxy, 'ready'), cpu: state },
    { label: 'HAProxy, 1 inst', url: state.lbUrl, prepare: () => setSecondInstance(haproxy, 'maint') },
    { label: '1 inst, PgBouncer, replica reads', url: `http://127.0.0.1:${firstInstance.port}` },
    { label: pgbPrimary.label, url: pgbPrimary.url },
    { label: directUnprepared.label, url: directUnprepared.url },
    { label: direct.label, url: direct.url },
  ];

  const started = Date.now();
  const dataset = await prepareDataset(state.lbUrl);
  await waitForReplica(state);
  console.log(`Dataset: ${dataset.ids.length} articles in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const chosen = (keys: string[]) => scenarios.filter((scenario) => keys.includes(scenario.key));
  const passes: PassReport[] = [];
  const pointReads = chosen(['get', 'create', 'create-tags', 'update']);
  if (pointReads.length > 0) {
    passes.push(await runAlternating('through the topology', targets, pointReads, options.rounds, dataset, options));
  }
  // The whole list (900 articles, 680 KB) at 32 connections queues past the 2 s storage deadline
  // on two cores; a few connections measure its throughput without turning it into 503s.
  const list = chosen(['list']);
  if (list.length > 0) {
    const connections = Math.min(4, options.connections);
    passes.push(
      await runAlternating('the whole list', targets, list, options.rounds, dataset, { ...options, connections }),
    );
  }
  // One connection: no queueing, so the differences are the cost of each hop per request.
  passes.push(
    await runAlternating(
      'one connection (the cost of a hop)',
      targets,
      selectScenarios(['get']),
      options.rounds,
      dataset,
      {
        ...options,
        connections: 1,
      },
    ),
  );
  await setSecondInstance(haproxy, 'ready');

  for (const pass of passes) {
    pass.notes.push(...ratios(pass));
    console.log(`\n${formatPass(pass)}\n`);
  }
  console.log(`Load average at the end: ${loadAverage()}`);
  const file = writeResultsFile('topology', { machine: describeMachine(), options, passes });
  console.log(`Figures written to ${file}`);
}

/** Each round runs every scenario on each target in turn, so the machine's noise hits all alike. */
async function runAlternating(
  name: string,
  targets: Target[],
  scenarios: Scenario[],
  rounds: number,
  dataset: PreparedDataset,
  settings: RunSettings,
): Promise<PassReport> {
  const cpuNotes: string[] = [];
  const pass: PassReport = {
    storage: `${name}: ${settings.connections} connection(s), ${rounds} round(s) of ${settings.durationSeconds} s, medians`,
    targets: targets.map((target) => target.label),
    scenarios: scenarios.map((s) => ({ key: s.key, title: s.title, target: s.target, runs: {} })),
    peakRssMb: {},
    notes: [],
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      for (const target of targets) {
        await target.prepare?.();
        let before: Record<string, number> | null = null;
        const figures = await measureClosedLoop(target.url, scenario, dataset, settings, () => {
          if (target.cpu) before = cpuByKind(target.cpu);
        });
        const counted: Record<string, number> | null = before;
        if (target.cpu && counted) {
          const spent = cpuByKind(target.cpu);
          const perRequest = Object.entries(spent).map(
            ([kind, ticks]) =>
              `${kind} ${(((ticks - (counted[kind] ?? 0)) * 1000) / CLOCK_TICKS / (figures.requests || 1)).toFixed(2)}`,
          );
          cpuNotes.push(`${scenario.title}, round ${round}: CPU ms per request: ${perRequest.join(', ')}`);
        }
        const runs = pass.scenarios[index]?.runs as Record<string, RunFigures[]>;
        runs[target.label] = [...(runs[target.label] ?? []), figures];
        console.log(
          `round ${round}/${rounds} ${scenario.title.padEnd(22)} ${target.label.padEnd(34)} ` +
            `${figures.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${figures.p50Ms.toFixed(1)} ms  ` +
            `p99 ${figures.p99Ms.toFixed(1)} ms  errors ${figures.errors}`,
        );
      }
    }
  }
  pass.notes.push(...cpuNotes);
  return pass;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

/**
 * CPU ticks spent so far by each kind of component (every process of its group: PostgreSQL's
 * backends, HAProxy, PgBouncer, the instances), to see where a request's CPU goes. The warm-up
 * is not in the count; requests are the measured run's.
 */
function cpuByKind(state: TopologyState): Record<string, number> {
  const ticks: Record<string, number> = {};
  for (const component of state.components) {
    ticks[component.kind] = (ticks[component.kind] ?? 0) + groupCpuTicks(component.pid);
  }
  return ticks;
}

/** The ratios docs/SCALING.md discusses, each the median of the per-round ratios. */
function ratios(pass: PassReport): string[] {
  const pairs: [string, string, string][] = [
    ['HAProxy, 2 inst', 'HAProxy, 1 inst', '2 instances / 1 instance'],
    ['HAProxy, 1 inst', '1 inst, PgBouncer, replica reads', 'through HAProxy / the same instance directly'],
    ['1 inst, PgBouncer, replica reads', '1 inst, PgBouncer, primary reads', 'reads on the replica / on the primary'],
    ['1 inst, PgBouncer, primary reads', '1 inst, direct, unprepared', 'through PgBouncer / direct (both unprepared)'],
    ['1 inst, direct, unprepared', '1 inst, direct, prepared', 'unprepared / prepared statements (direct)'],
  ];
  return pass.scenarios.flatMap((scenario) =>
    pairs.map(([a, b, what]) => {
      const ratio = medianRatio(scenario.runs[a] ?? [], scenario.runs[b] ?? []);
      const p50 = summarize(scenario.runs[a] ?? []).p50Ms - summarize(scenario.runs[b] ?? []).p50Ms;
      return `${scenario.title}: ${what}: throughput × ${ratio.toFixed(2)}, p50 ${p50 >= 0 ? '+' : ''}${p50.toFixed(2)} ms`;
    }),
  );
}

/** Takes the second instance out of rotation (maint) or puts it back, through HAProxy's runtime API. */
async function setSecondInstance(stateDir: string, state: 'ready' | 'maint'): Promise<void> {
  await haproxyCommand(stateDir, `set server instances/instance2 state ${state}`);
  if (state === 'maint') return;
  // Back in rotation once its health check passes again (rise 2, every 250 ms).
  for (let tries = 0; tries < 50; tries++) {
    if ((await haproxyCommand(stateDir, 'show servers state instances')).includes(' instance2 127.0.0.1 2 ')) return;
    await sleep(100);
  }
  throw new Error('instance2 did not come back into rotation');
}

/** Waits until the replica has replayed everything the primary wrote, so reads on it see the dataset. */
async function waitForReplica(state: TopologyState): Promise<void> {
  const primary = new Client({ connectionString: state.urls.superuser });
  await primary.connect();
  try {
    for (let tries = 0; tries < 100; tries++) {
      const { rows } = await primary.query<{ behind: boolean }>(
        'SELECT coalesce(bool_or(replay_lsn < pg_current_wal_lsn()), true) AS behind FROM pg_stat_replication',
      );
      if (rows[0]?.behind === false) return;
      await sleep(100);
    }
    throw new Error('the replica did not catch up within 10 s');
  } finally {
    await primary.end();
  }
}

async function start(label: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(label, BUILT_SERVICE, env);
  cleanups.push(() => server.stop());
  return server;
}
