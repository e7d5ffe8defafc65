import path from 'node:path';
import autocannon from 'autocannon';
import { SERVICE_NODE_FLAGS } from '../src/process/node-flags';
import type { BenchOptions } from './options';
import { startServer } from './processes';
import { median } from './report';
import { cleanups } from './run-main';

const APP = path.join(__dirname, 'baseline', 'bare-express.js');
const SERVERS = ['plain', 'prototypes'] as const;
type ServerKind = (typeof SERVERS)[number];
/**
 * The service's V8 flags: its young generation, the heap growth src/process/heap-growth.ts sets
 * as the service starts (not imported: loading it applies it to this process), and V8's line
 * per young collection.
 */
const GC_TRACED_SERVICE_FLAGS = [...SERVICE_NODE_FLAGS, '--heap-growing-percent=50', '--trace-gc-nvp'];

interface RunningApp {
  kind: ServerKind;
  url: string;
  /** Bytes promoted by each young collection since the last call (V8's --trace-gc-nvp lines). */
  takePromoted(): number[];
}

/**
 * `npm run bench -- express-prototypes` (ADR 0051): the same bare Express app on Node's plain
 * server and on one that builds requests and responses with the app's prototypes, with the
 * service's V8 flags, in alternating runs: requests a second, and bytes promoted per young
 * collection (what made the service's full collections frequent).
 */
export async function runExpressPrototypes(options: BenchOptions): Promise<void> {
  const apps = await Promise.all(SERVERS.map(startApp));
  const rates: Record<ServerKind, number[]> = { plain: [], prototypes: [] };
  const promoted: Record<ServerKind, number[]> = { plain: [], prototypes: [] };
  for (let round = 1; round <= options.rounds; round++) {
    for (const app of round % 2 === 1 ? apps : [...apps].reverse()) {
      await load(app.url, options.warmupSeconds, options.connections);
      app.takePromoted();
      const result = await load(app.url, options.durationSeconds, options.connections);
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${app.kind}: ${result.non2xx + result.errors} failed`);
      const collections = app.takePromoted();
      rates[app.kind].push(result.requests.average);
      promoted[app.kind].push(median(collections));
      console.log(
        `round ${round}/${options.rounds} ${app.kind.padEnd(10)} ${result.requests.average.toFixed(0).padStart(7)} req/s, ` +
          `${collections.length} young collections, median ${(median(collections) / 1024).toFixed(0)} KB promoted each`,
      );
    }
  }
  console.log('\n| server | req/s (median) | KB promoted per young collection (median) |\n| :-- | --: | --: |');
  for (const kind of SERVERS) {
    console.log(`| ${kind} | ${median(rates[kind]).toFixed(0)} | ${(median(promoted[kind]) / 1024).toFixed(0)} |`);
  }
  const ratios = rates.prototypes.map((rate, index) => rate / (rates.plain[index] as number));
  console.log(`\nprototypes / plain: ${median(ratios).toFixed(2)} req/s (medians of the per-round ratios)`);
}

function load(url: string, seconds: number, connections: number): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds });
}

async function startApp(kind: ServerKind): Promise<RunningApp> {
  let promoted: number[] = [];
  let partial = '';
  const onStdout = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const match = / gc=s .* promoted=(\d+) /.exec(line);
      if (match) promoted.push(Number(match[1]));
    }
  };
  const server = await startServer(kind, APP, { SERVER: kind }, GC_TRACED_SERVICE_FLAGS, onStdout);
  cleanups.push(() => server.stop());
  return {
    kind,
    url: `${server.url}/article/1`,
    takePromoted: () => {
      const taken = promoted;
      promoted = [];
      return taken;
    },
  };
}
