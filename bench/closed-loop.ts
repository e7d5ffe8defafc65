import http from 'node:http';
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
  const sorted = measured.latencies.sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? NaN;
  return {
    requestsPerSecond: sorted.length / settings.durationSeconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors: warmup.errors + measured.errors,
    requests: sorted.length,
  };
}

async function run(
  baseUrl: string,
  scenario: Scenario,
  dataset: PreparedDataset,
  connections: number,
  seconds: number,
): Promise<{ latencies: number[]; errors: number }> {
  const target = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
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
        if (ok) latencies.push(performance.now() - started);
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
