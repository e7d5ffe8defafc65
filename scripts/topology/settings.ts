import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `up` is asked for, from the environment (deploy/README.md). */
export interface TopologySettings {
  /** State of a running topology (state.json, logs, rendered configs); removed by `down`. */
  readonly stateDir: string;
  /** HAProxy's port: the one address clients use. */
  readonly lbPort: number;
  /** Service instances behind HAProxy, each one process (WORKERS=1). */
  readonly instances: number;
  /** Passed through to every instance when set. */
  readonly apiToken: string | undefined;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS, passed through to every instance when set: the instances run
   * on 127.0.0.1, so a receiver beside them (a test's) is reachable only with it.
   */
  readonly webhookAllowPrivateNetworks: string | undefined;
  /** WEBHOOK_RETRY_SCHEDULE, passed through to every instance when set. */
  readonly webhookRetrySchedule: string | undefined;
  /** PG_POOL_SIZE of each instance, per database (primary, replica). */
  readonly poolSize: number;
  /** LOG_LEVEL of the instances: warn keeps request lines out of the logs under load. */
  readonly logLevel: string;
  /**
   * Each database node in a network namespace of its own (as root, where namespaces work), so
   * that a node can be partitioned; off (TOPOLOGY_NETNS=0), or where unavailable, the nodes
   * share the loopback interface.
   */
  readonly nodeNetwork: boolean;
  /** The repository: deploy/ templates and dist/src/main.js. */
  readonly repoRoot: string;
}

/** The nearest folder above this file with a package.json: the repository, from the source or from dist/. */
function findRepoRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRepoRoot(__dirname);

export function defaultStateDir(): string {
  return path.join(os.tmpdir(), 'blog-topology');
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): TopologySettings {
  return {
    stateDir: path.resolve(env.TOPOLOGY_DIR || defaultStateDir()),
    lbPort: whole(env, 'TOPOLOGY_PORT', 8080, 1, 65535),
    instances: whole(env, 'INSTANCES', 2, 1, 16),
    apiToken: env.API_TOKEN || undefined,
    webhookAllowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS || undefined,
    webhookRetrySchedule: env.WEBHOOK_RETRY_SCHEDULE || undefined,
    poolSize: whole(env, 'PG_POOL_SIZE', 10, 1, 100),
    logLevel: env.LOG_LEVEL || 'warn',
    nodeNetwork: env.TOPOLOGY_NETNS !== '0',
    repoRoot: REPO_ROOT,
  };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new Error(`${name}: "${raw}" is not a whole number from ${min} to ${max}`);
  }
  return value;
}
