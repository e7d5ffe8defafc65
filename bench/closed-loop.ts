import http from 'node:http';
import { build, type Histogram } from 'hdr-histogram-js';
import type { PreparedDataset } from './dataset';
import type { RunFigures, RunSettings } from './measure';
import type { Scenario } from './scenarios';

/** Every answer must be the success wrapper, as in measure.ts. */
const SUCCESS_PREFIX = '{"statusCode":10000,';

/**
 * The same runs as measure.ts (a warm-up, then a bounded run of a scenario's requests on N
 * connections), sent with Node's HTTP client instead of autocannon. autocannon ignores
 * `Connection: close`: it writes the next request on a connection the server is closing and
 * then times later answers against the wrong requests, so its figures for HAProxy, which
 * closes every client connection after one answer (deploy/haproxy/haproxy.cfg), are wrong.
 * Node's agent opens a new connection when asked to close, and keeps it otherwise.
 */
export async function measureClosedLoop(
  baseUrl: string,
  scenario: Scenario,
  dataset: PreparedDataset,
  settings: RunSettings,
  /** Called between the warm-up and the measured run (to start counting something). */
  afterWarmup?: () => void,
): Promise<RunFigures> {
  const warmup = await run(baseUrl, scenario, dataset, settings.connections, settings.warmupSeconds);
  afterWarmup?.();
  const measured = await run(baseUrl, scenario, dataset, settings.connections, settings.durationSeconds);
  const answers = measured.latencies.totalCount;
  // Nearest rank, as autocannon's p50/p99 in measure.ts: the latency `percentile` % of answers did not exceed.
  const ms = (percentile: number) =>
    answers > 0 ? measured.latencies.getValueAtPercentile(percentile) / MICROSECONDS_PER_MS : NaN;
  return {
    requestsPerSecond: answers / settings.durationSeconds,
    p50Ms: ms(50),
    p99Ms: ms(99),
    errors: warmup.errors + measured.errors,
    requests: answers,
  };
}

const MICROSECONDS_PER_MS = 1_000;

/**
 * Latencies of successful answers in whole microseconds, kept to 3 significant digits (within
 * 0.1 %), from 1 µs up to twice the 30 s request timeout (and beyond: it resizes itself).
 */
const latencyHistogram = (): Histogram =>
  build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
  });

async function run(
  baseUrl: string,
  scenario: Scenario,
  dataset: PreparedDataset,
  connections: number,
  seconds: number,
): Promise<{ latencies: Histogram; errors: number }> {
  const target = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = latencyHistogram();
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const loop = async () => {
    const [template] = scenario.requests(dataset);
    if (!template) throw new Error(`scenario ${scenario.key} has no request`);
    while (performance.now() < deadline) {
      // The scenarios' setupRequest functions pick an id or a title for each request.
      const setup = typeof template.setupRequest === 'function' ? template.setupRequest : null;
      const request = setup ? setup({ ...template }, {}) : template;
      const started = performance.now();
      const ok = await send(agent, target, request);
      // Only answers that arrived within the run count, as with autocannon's duration.
      if (performance.now() <= deadline) {
        if (ok) latencies.recordValue(Math.round((performance.now() - started) * MICROSECONDS_PER_MS));
        else errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return { latencies, errors };
}

interface RequestShape {
  method?: string;
  path?: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string | Buffer;
}

function send(agent: http.Agent, target: URL, request: RequestShape): Promise<boolean> {
  return new Promise((resolve) => {
    const call = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: request.method ?? 'GET',
        path: request.path ?? '/',
        headers: request.headers,
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          resolve(status >= 200 && status < 300 && body.startsWith(SUCCESS_PREFIX));
        });
        response.once('error', () => resolve(false));
      },
    );
    call.once('timeout', () => call.destroy(new Error('timeout')));
    call.once('error', () => resolve(false));
    call.end(request.body);
  });
}
