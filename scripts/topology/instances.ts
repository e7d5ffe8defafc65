import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../src/process/node-flags';
import type { TopologySettings } from './settings';
import type { Component } from './state';

export interface InstanceDatabases {
  /** Through PgBouncer, to the primary. */
  readonly writeUrl: string;
  /** Through PgBouncer, to the replica. */
  readonly readUrl: string;
}

/** Environment every instance gets, and `npm run topology` migrates with. */
export function instanceEnv(settings: TopologySettings, databases: InstanceDatabases): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databases.writeUrl,
    DATABASE_READ_URLS: databases.readUrl,
    // PgBouncer 1.18 in transaction mode cannot keep named prepared statements.
    PG_PREPARED_STATEMENTS: 'false',
    PG_POOL_SIZE: String(settings.poolSize),
    WORKERS: '1',
    // HAProxy is the one proxy in front: its X-Forwarded-For names the client.
    TRUST_PROXY: '1',
    LOG_LEVEL: settings.logLevel,
    ...(settings.apiToken !== undefined && { API_TOKEN: settings.apiToken }),
    ...(settings.webhookAllowPrivateNetworks !== undefined && {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: settings.webhookAllowPrivateNetworks,
    }),
    ...(settings.webhookRetrySchedule !== undefined && { WEBHOOK_RETRY_SCHEDULE: settings.webhookRetrySchedule }),
  };
}

/**
 * One service process (`node <SERVICE_NODE_FLAGS> dist/src/main.js`, as `npm start` runs it),
 * stopped by SIGTERM: it drains, then exits.
 */
export function instanceComponent(
  settings: TopologySettings,
  databases: InstanceDatabases,
  port: number,
  number: number,
  logDir: string,
): Omit<Component, 'pid'> {
  return {
    kind: 'instance',
    port,
    stopSignal: 'SIGTERM',
    launch: {
      command: process.execPath,
      args: [...SERVICE_NODE_FLAGS, path.join(settings.repoRoot, 'dist', 'src', 'main.js')],
      cwd: settings.repoRoot,
      env: { ...instanceEnv(settings, databases), PORT: String(port) },
      logFile: path.join(logDir, `instance-${number}.log`),
    },
    ready: { type: 'http', url: `http://127.0.0.1:${port}/ready` },
  };
}
