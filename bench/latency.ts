import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import {
  createNetwork,
  type NodeNetwork,
  networkUnavailableReason,
  nodeAddress,
  nodeNamespace,
  removeNetwork,
} from '../scripts/topology/network';
import { POSTGRES_BIN } from '../scripts/topology/postgres';
import { launch, stopGroup, waitUntil } from '../scripts/topology/processes';
import type { BenchDatabase } from './databases';
import { timedWholeList } from './full-list';
import { SERVICE_ENV } from './http-client';
import { DIST, SERVICE } from './paths';
import { startService } from './processes';
import { describeMachine, loadAverage } from './report';
import { writeResultsFile } from './results-file';
import { cleanups } from './run-main';
import { type SeededDataset, seedAtSize } from './seed-at-size';
import { WireCounter, type WireCounts } from './wire-counter';

export interface LatencyOptions {
  /** Added by netem on each way between the service and PostgreSQL. */
  delayMs: number;
  articles: number;
  runs: number;
  /**
   * What an operator can do about TCP slow start, on this bench's own link only: PostgreSQL's
   * namespace keeps its window across idle time (net.ipv4.tcp_slow_start_after_idle=0 there)
   * and the routes start with a window of 64 segments (initcwnd, initrwnd).
   */
  tunedTcp: boolean;
}

/** One `GET /article` (no limit), timed from the request, with what crossed the slow link for it. */
interface ListFigures {
  status: number;
  firstByteMs: number;
  totalMs: number;
  articles: number;
  bytes: number;
  wire: WireCounts;
}

/** bench/ in the checkout (delay-line.py is not compiled). */
const BENCH_SOURCES = path.resolve(DIST, '..', 'bench');
const PG_PORT = 5432;
/** Idle time before each timed list: several retransmission timeouts of a 500 ms link, well under POOL_IDLE_MS. */
const IDLE_BEFORE_LIST_MS = 5_000;
/** pg-pool's default idleTimeoutMillis: a connection idle this long is closed. */
const POOL_IDLE_MS = 10_000;

/**
 * `npm run bench -- latency` (root): PostgreSQL 15 in a network namespace of its own (the
 * topology's network helpers, one node), the service in the root namespace reaching it through
 * a counting proxy and a veth pair with netem adding `delayMs` each way, N articles seeded in
 * SQL. Each run: the pool is warmed with the link fast, a transaction moves the storage version
 * on (the list cache's answer is stale), the delay is put on, and the whole list is read:
 * time to the first byte, to the end, and the round trips, statements and bytes on the wire.
 * Then the same list again (a cache hit: the version check alone), and once at the end a list
 * with no idle connection in the pool (connection setup over the slow link).
 */
export async function runLatency(options: LatencyOptions): Promise<void> {
  const unavailable = networkUnavailableReason();
  if (unavailable) throw new Error(`latency needs network namespaces: ${unavailable}`);
  const sysctls = ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'].map(
    (name) => `${name} = ${execFileSync('sysctl', ['-n', name]).toString().trim()}`,
  );
  console.log(`Machine: ${describeMachine()}; load average ${loadAverage()}`);
  for (const line of sysctls) console.log(line);

  const network = createNetwork(1);
  cleanups.push(async () => removeNetwork(network));
  const link = hasNetem(nodeNamespace(network, 1)) ? netemLink(network) : await delayLine(network);
  cleanups.push(() => link.close());
  const postgres = await startPostgres(nodeNamespace(network, 1), link.address);
  cleanups.push(postgres.stop);
  const counter = await WireCounter.start({ host: link.address, port: PG_PORT });
  cleanups.push(() => counter.stop());

  const database: BenchDatabase = {
    kind: 'postgres',
    url: postgres.url,
    description: postgres.description,
    removeArticlesAfter: async () => {},
    close: async () => {},
  };
  const dataset = await seedAtSize(database, options.articles);
  const service = await startService('service', SERVICE, {
    ...SERVICE_ENV,
    DATABASE_URL: counter.urlThrough(postgres.url),
  });
  cleanups.push(() => service.stop());
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  cleanups.push(() => admin.end());
  console.log(
    `${dataset.visible} visible of ${options.articles} articles; ${options.delayMs} ms each way to ${link.address}: ${link.how}`,
  );

  // Read once with the link fast, so that the list cache knows the list's length and asks
  // for the version first, as it does in service.
  await readList(service.url, dataset, counter);
  const wholeLists: ListFigures[] = [];
  const cacheHits: ListFigures[] = [];
  // Connections opened while the link is fast (opening one over it outlasts the service's
  // connect timeout: see the cold list below), then the delay for good. A few small reads
  // let TCP learn the new round-trip time.
  await Promise.all(Array.from({ length: 3 }, () => fetch(`${service.url}/article?limit=1`).then((r) => r.text())));
  link.set(options.delayMs);
  for (let n = 0; n < 3; n++) await fetch(`${service.url}/article?limit=1`).then((r) => r.text());
  if (options.tunedTcp) link.tuneTcp();
  for (let run = 1; run <= options.runs; run++) {
    // The version moves on: the cached answer no longer serves.
    await admin.query('SELECT txid_current()');
    // A quiet moment, as between two lists in service (long enough for
    // tcp_slow_start_after_idle to apply, unless tuned).
    await sleep(IDLE_BEFORE_LIST_MS);
    const whole = await readList(service.url, dataset, counter, options.delayMs);
    wholeLists.push(whole);
    console.log(`run ${run}: whole list   ${describe(whole)}`);
    const hit = await readList(service.url, dataset, counter, options.delayMs);
    cacheHits.push(hit);
    console.log(`run ${run}: cached list  ${describe(hit)}`);
  }
  // No idle connection: the pool closes them after POOL_IDLE_MS.
  await admin.query('SELECT txid_current()');
  await sleep(POOL_IDLE_MS + 1_000);
  const cold = await readList(service.url, dataset, counter, options.delayMs);
  console.log(`no idle connection: ${describe(cold)}`);
  link.set(null);

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const summary = {
    firstByteMs: median(wholeLists.map((f) => f.firstByteMs)),
    totalMs: median(wholeLists.map((f) => f.totalMs)),
    turns: median(wholeLists.map((f) => f.wire.turns)),
    statements: median(wholeLists.map((f) => f.wire.statements)),
    cachedTotalMs: median(cacheHits.map((f) => f.totalMs)),
  };
  console.log(
    `\nmedian of ${options.runs}, ${options.delayMs} ms each way, ${dataset.visible} articles: first byte ${summary.firstByteMs.toFixed(0)} ms, ` +
      `end ${summary.totalMs.toFixed(0)} ms, ${summary.turns} round trips, ${summary.statements} statements; ` +
      `cached answer ${summary.cachedTotalMs.toFixed(0)} ms`,
  );
  const file = writeResultsFile('latency', {
    machine: describeMachine(),
    sysctls,
    options,
    database: postgres.description,
    link: link.how,
    visible: dataset.visible,
    summary,
    wholeLists,
    cacheHits,
    cold,
  });
  console.log(`figures in ${file}`);
}

function describe(figures: ListFigures): string {
  const { wire } = figures;
  return (
    `${figures.status} first byte ${figures.firstByteMs.toFixed(0).padStart(5)} ms, end ${figures.totalMs.toFixed(0).padStart(5)} ms, ` +
    `${figures.articles} articles, ${(figures.bytes / 1e6).toFixed(2)} MB; wire: ${wire.connections} connections, ` +
    `${wire.turns} round trips, ${wire.statements} statements, ${(wire.bytesDown / 1e6).toFixed(2)} MB down`
  );
}

/**
 * Reads the whole list and checks a 200: the success wrapper around exactly the dataset's
 * visible articles. Another status is figures too (the body's start in the log). The wire
 * counts include what the service sends after the answer's end (a COMMIT), waited for one
 * round trip.
 */
async function readList(
  baseUrl: string,
  dataset: SeededDataset,
  counter: WireCounter,
  delayMs = 0,
): Promise<ListFigures> {
  counter.take();
  const { status, firstByteMs, totalMs, text } = await timedWholeList(baseUrl, 120_000);
  let articles = 0;
  if (status === 200) {
    const body = JSON.parse(text) as { statusCode: number; data: unknown[] };
    articles = body.data.length;
    if (body.statusCode !== 10000 || articles !== dataset.visible)
      throw new Error(`${articles} articles, expected the ${dataset.visible} visible ones`);
  } else {
    console.log(`  answered ${status}: ${text.slice(0, 200)}`);
  }
  const figures = { status, firstByteMs, totalMs, articles, bytes: Buffer.byteLength(text) };
  await sleep(2 * delayMs + 100);
  return { ...figures, wire: counter.take() };
}

/** The link between the service and PostgreSQL, whose delay each way can be set. */
interface SlowLink {
  /** How the delay is made, for the report. */
  readonly how: string;
  /** PostgreSQL's address on the far side of the link. */
  readonly address: string;
  set(delayMs: number | null): void;
  /** LatencyOptions.tunedTcp, on this link's routes and PostgreSQL's namespace only. */
  tuneTcp(): void;
  close(): Promise<void>;
}

/** The route to `to` in `namespace` (null: the root one) through `device`, with initial windows of 64 segments. */
function widenInitialWindows(namespace: string | null, to: string, device: string, from: string): void {
  const netns = namespace ? ['-n', namespace] : [];
  execFileSync(
    'ip',
    [...netns, 'route', 'replace', to, 'dev', device, 'proto', 'kernel', 'scope', 'link', 'src', from].concat([
      'initcwnd',
      '64',
      'initrwnd',
      '64',
    ]),
    { stdio: 'pipe' },
  );
}

/** PostgreSQL's side keeps its TCP window over idle time; a sysctl of its namespace only. */
function keepWindowWhenIdle(namespace: string): void {
  execFileSync('ip', ['netns', 'exec', namespace, 'sysctl', '-qw', 'net.ipv4.tcp_slow_start_after_idle=0'], {
    stdio: 'pipe',
  });
}

/** Whether this kernel has netem (CONFIG_NET_SCH_NETEM): a probe qdisc in `namespace`, deleted at once. */
function hasNetem(namespace: string): boolean {
  const tc = (...args: string[]) =>
    execFileSync('ip', ['netns', 'exec', namespace, 'tc', 'qdisc', ...args], { stdio: 'pipe' });
  try {
    tc('add', 'dev', 'eth0', 'root', 'netem', 'delay', '1ms');
  } catch {
    return false;
  }
  tc('del', 'dev', 'eth0', 'root');
  return true;
}

/** netem on both ends of the node's veth pair: the hub's side delays what goes to the node, the node's what comes back. */
function netemLink(network: NodeNetwork): SlowLink {
  let current: number | null = null;
  const set = (delayMs: number | null) => {
    if (delayMs === current) return;
    for (const [namespace, device] of [
      [`${network.prefix}-hub`, 'n1'],
      [nodeNamespace(network, 1), 'eth0'],
    ] as const) {
      const tc = (...args: string[]) =>
        execFileSync('ip', ['netns', 'exec', namespace, 'tc', 'qdisc', ...args], { stdio: 'pipe' });
      if (current !== null) tc('del', 'dev', device, 'root');
      // A limit far above the packets in flight of a 1.4 MB answer.
      if (delayMs !== null) tc('add', 'dev', device, 'root', 'netem', 'delay', `${delayMs}ms`, 'limit', '100000');
    }
    current = delayMs;
  };
  const tuneTcp = () => {
    const node = nodeNamespace(network, 1);
    keepWindowWhenIdle(node);
    widenInitialWindows(node, `${network.subnet}.0/24`, 'eth0', nodeAddress(network, 1));
    widenInitialWindows(null, `${network.subnet}.0/24`, network.rootVeth, `${network.subnet}.1`);
  };
  return {
    how: 'tc netem on the veth pair',
    address: nodeAddress(network, 1),
    set,
    tuneTcp,
    close: async () => set(null),
  };
}

/**
 * Where the kernel has no netem: two TUN devices, one in the root namespace and one in the
 * node's, joined by bench/delay-line.py, which passes each IP packet on after the delay. The
 * kernel's TCP runs unchanged on both sides, as over netem.
 */
async function delayLine(network: NodeNetwork): Promise<SlowLink> {
  const k = network.subnet.split('.')[2] as string;
  const [rootTun, nodeTun] = [`${network.prefix}ta`, `${network.prefix}tb`];
  const [rootAddress, address] = [`10.232.${k}.1`, `10.232.${k}.2`];
  const child = spawn('python3', [path.join(BENCH_SOURCES, 'delay-line.py'), rootTun, nodeTun, '0'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`delay-line.py exited (${code}) before it was ready`)));
  });
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const namespace = nodeNamespace(network, 1);
  ip('link', 'set', nodeTun, 'netns', namespace);
  ip('addr', 'add', rootAddress, 'peer', address, 'dev', rootTun);
  ip('link', 'set', rootTun, 'up');
  ip('-n', namespace, 'addr', 'add', address, 'peer', rootAddress, 'dev', nodeTun);
  ip('-n', namespace, 'link', 'set', nodeTun, 'up');
  return {
    how: 'bench/delay-line.py between two TUN devices (this kernel has no netem)',
    address,
    set: (delayMs) => child.stdin.write(`${delayMs ?? 0}\n`),
    tuneTcp: () => {
      keepWindowWhenIdle(namespace);
      widenInitialWindows(namespace, rootAddress, nodeTun, address);
      widenInitialWindows(null, address, rootTun, rootAddress);
    },
    // The devices go with the process.
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

interface NamespacedPostgres {
  url: string;
  description: string;
  stop: () => Promise<void>;
}

/**
 * Debian's PostgreSQL 15 (the topology's), run as `postgres` inside `namespace`, listening on
 * `address` only, password (SCRAM) authentication as in the topology; database `blog`.
 */
async function startPostgres(namespace: string, address: string): Promise<NamespacedPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-latency-pg-'));
  const password = Math.random().toString(36).slice(2);
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  fs.chownSync(dir, uid, gid);
  const pwfile = path.join(dir, 'pwfile');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  fs.chownSync(pwfile, uid, gid);
  const data = path.join(dir, 'data');
  const asPostgres = ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'];
  execFileSync(
    asPostgres[0] as string,
    [...asPostgres.slice(1), `${POSTGRES_BIN}/initdb`, '-D', data, '-U', 'postgres', '--auth=scram-sha-256'].concat([
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C',
    ]),
    { stdio: 'pipe', cwd: dir },
  );
  fs.appendFileSync(
    path.join(data, 'pg_hba.conf'),
    'host all all 10.231.0.0/16 scram-sha-256\nhost all all 10.232.0.0/16 scram-sha-256\n',
  );
  const pid = launch({
    command: 'ip',
    args: [
      'netns',
      'exec',
      namespace,
      ...asPostgres,
      `${POSTGRES_BIN}/postgres`,
      '-D',
      data,
      '-p',
      String(PG_PORT),
      '-c',
      `listen_addresses=${address}`,
      '-c',
      `unix_socket_directories=${dir}`,
    ],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' },
    logFile: path.join(dir, 'postgres.log'),
  });
  const stop = async () => {
    await stopGroup(pid, 'SIGINT', 10_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const server = `postgres://postgres:${password}@${address}:${PG_PORT}`;
  try {
    await waitUntil(
      async () => {
        const client = new Client({ connectionString: `${server}/postgres` });
        try {
          await client.connect();
          await client.end();
          return true;
        } catch {
          return false;
        }
      },
      30_000,
      `PostgreSQL in ${namespace} to accept connections`,
    );
    const client = new Client({ connectionString: `${server}/postgres` });
    await client.connect();
    await client.query("CREATE DATABASE blog ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
    const version = (await client.query('SHOW server_version')).rows[0].server_version as string;
    await client.end();
    return { url: `${server}/blog`, description: `PostgreSQL ${version} (Debian) in ${namespace}`, stop };
  } catch (error) {
    const log = fs.readFileSync(path.join(dir, 'postgres.log'), 'utf8').slice(-2000);
    await stop();
    throw new Error(`${(error as Error).message}\npostgres.log:\n${log}`);
  }
}
