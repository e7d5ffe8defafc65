import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './free-port';
import { waitForListening } from './listening-line';

const PRISM = path.resolve(__dirname, '../../node_modules/@stoplight/prism-cli/dist/index.js');
const LOOPBACK_ONLY = path.join(__dirname, 'loopback-only.cjs');
const READY_LINE = 'Prism is listening on';
const OFF_LOOPBACK_LINE = 'loopback-only: refused';
const OUTPUT_KEPT = 20_000;

/** One entry of Prism's `sl-violations` header: a way the request or the response breaks the document. */
export interface PrismViolation {
  side: 'request' | 'response';
  severity: string;
  message: string;
  /** Where, after the side: `body`, `query.limit`, `header.x-request-id`; empty for the whole message. */
  path: string;
  code?: string | number;
}

export interface RunningPrism {
  baseUrl: string;
  /** The violations Prism found in one exchange through it (none when the header is absent). */
  violations(response: Response): PrismViolation[];
  /** Hosts Prism tried to reach off the loopback interface (refused); empty when it kept to the service. */
  offLoopbackAttempts(): string[];
  stop(): Promise<void>;
}

/**
 * Starts Stoplight Prism as a validating proxy (`prism proxy`) for an OpenAPI document file in
 * front of `upstream`, on a free loopback port, and resolves once it listens. `--errors` stays
 * off, so Prism forwards every request and answers with the upstream's answer, adding the
 * violations it found to the `sl-violations` header. A preloaded guard refuses any connection
 * off the loopback interface.
 */
export async function startPrismProxy(documentFile: string, upstream: string): Promise<RunningPrism> {
  const port = await freePort();
  // The Node.js running the tests: Prism 5.16 declares >= 24.18, but proxies as this test uses it
  // on every supported line (20, 22, 24, 26 tried), so `npm test` passes on each.
  const child = spawn(
    process.execPath,
    ['--require', LOOPBACK_ONLY, PRISM, 'proxy', documentFile, upstream, '--host', '127.0.0.1', '--port', `${port}`],
    // No NODE_ENV: in production Prism forks a worker for its log. No colour codes in the lines read.
    { env: { PATH: process.env.PATH ?? '', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Prism logs every exchange, bodies included: only the end of its output is kept, for errors.
  let output = '';
  const offLoopback: string[] = [];
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', (chunk: Buffer) => {
    keep(chunk);
    offLoopback.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((line) => line.startsWith(OFF_LOOPBACK_LINE)),
    );
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  await waitForListening(child, {
    what: 'Prism',
    withinMs: 20_000,
    exited,
    stderr: () => output,
    ready: (line) => line.includes(READY_LINE),
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    violations: (response) => parseViolations(response.headers.get('sl-violations')),
    offLoopbackAttempts: () => [...offLoopback],
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The `sl-violations` header is a JSON array of `{location: ['request' | 'response', …path],
 * severity, code, message}`; Prism prefixes it with "Too many violations!" and cuts it when
 * it would pass 8 KB, which is kept as one violation saying so.
 */
export function parseViolations(header: string | null): PrismViolation[] {
  if (header === null) return [];
  if (!header.startsWith('[')) {
    return [{ side: 'request', severity: 'Error', message: header.slice(0, 200), path: '' }];
  }
  const entries = JSON.parse(header) as Array<{
    location: string[];
    severity: string;
    code?: string | number;
    message: string;
  }>;
  return entries.map(({ location, severity, code, message }) => ({
    side: location[0] === 'response' ? 'response' : 'request',
    severity,
    message,
    path: location.slice(1).join('.'),
    ...(code === undefined ? {} : { code }),
  }));
}
