import autocannon from 'autocannon';
import type { PreparedDataset } from './dataset';
import { cpuSecondsBetween, cpuSecondsByProcess } from './processes';
import type { Scenario } from './scenarios';

/** What one measured run of one scenario on one server gave. */
export interface RunFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * Socket errors, timeouts, non-2xx answers (or any other status than the scenario's) and bodies
   * without statusCode 10000 (or that its check refuses), warm-up included.
   */
  errors: number;
  requests: number;
  /** Answers during the warm-up (a profile of the whole process counts them too). */
  warmupRequests?: number;
  /** Highest resident memory of the server's process tree during the run, in MB. */
  peakRssMb?: number;
  /**
   * The server's CPU time per answer during the measured run, in microseconds: unlike req/s it
   * hardly moves when other work shares the cores, so small differences show through noise.
   */
  cpuUsPerRequest?: number;
  /** PostgreSQL's CPU time per answer during the measured run (every postgres process of this machine). */
  databaseCpuUsPerRequest?: number;
}

export interface RunSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** Every answer must be the success wrapper; both servers put statusCode first. */
const SUCCESS_PREFIX = '{"statusCode":10000,';

/**
 * A warm-up (figures dropped, errors kept), then the measured run; both bounded in time.
 * `cpuSeconds`: the server's CPU time so far, read around the measured run.
 */
export async function measure(
  baseUrl: string,
  scenario: Scenario,
  dataset: PreparedDataset,
  settings: RunSettings,
  cpuSeconds?: () => number,
): Promise<RunFigures> {
  await scenario.before?.(baseUrl);
  const warmup = await load(baseUrl, scenario, dataset, settings.connections, settings.warmupSeconds);
  const cpuBefore = cpuSeconds?.();
  const databaseBefore = cpuSecondsByProcess('postgres');
  const run = await load(baseUrl, scenario, dataset, settings.connections, settings.durationSeconds);
  const cpuAfter = cpuSeconds?.();
  const databaseSeconds = cpuSecondsBetween(databaseBefore, cpuSecondsByProcess('postgres'));
  return {
    ...(databaseSeconds > 0 &&
      run.requests.total > 0 && { databaseCpuUsPerRequest: (databaseSeconds * 1e6) / run.requests.total }),
    ...(cpuBefore !== undefined &&
      cpuAfter !== undefined &&
      run.requests.total > 0 && { cpuUsPerRequest: ((cpuAfter - cpuBefore) * 1e6) / run.requests.total }),
    requestsPerSecond: run.requests.total / run.duration,
    p50Ms: run.latency.p50,
    p99Ms: run.latency.p99,
    errors: errorsOf(warmup, scenario) + errorsOf(run, scenario),
    requests: run.requests.total,
    warmupRequests: warmup.requests.total,
  };
}

function load(
  baseUrl: string,
  scenario: Scenario,
  dataset: PreparedDataset,
  connections: number,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    // An answer slower than this counts as an error. At 32 connections the list queues for
    // seconds on two cores (mean latency = connections / throughput), so the bound is generous.
    timeout: 30,
    requests: scenario.requests(dataset),
    verifyBody: (body) =>
      typeof body === 'string' && (scenario.verifyBody ? scenario.verifyBody(body) : body.startsWith(SUCCESS_PREFIX)),
  });
}

function errorsOf(result: autocannon.Result, scenario: Scenario): number {
  if (scenario.status === undefined) return result.errors + result.non2xx + result.mismatches;
  const answers = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const expected = result.statusCodeStats?.[String(scenario.status) as keyof typeof result.statusCodeStats]?.count ?? 0;
  return result.errors + result.mismatches + answers - expected;
}
