import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Component } from './state';
import { renderTemplate } from './templates';

/** HAProxy's config (deploy/haproxy/haproxy.cfg) over the instances' ports, checked by `haproxy -c` first. */
export function haproxyComponent(
  repoRoot: string,
  stateDir: string,
  logDir: string,
  lbPort: number,
  instancePorts: readonly number[],
): Omit<Component, 'pid'> {
  const config = path.join(stateDir, 'haproxy.cfg');
  const servers = instancePorts.map((port, index) => `    server instance${index + 1} 127.0.0.1:${port}`).join('\n');
  fs.writeFileSync(
    config,
    renderTemplate(repoRoot, 'haproxy/haproxy.cfg', {
      LB_PORT: lbPort,
      STATS_SOCKET: haproxySocket(stateDir),
      ERRORS_DIR: path.join(repoRoot, 'deploy', 'haproxy', 'errors'),
      SERVERS: servers,
    }),
  );
  execFileSync('haproxy', ['-c', '-q', '-f', config], { stdio: 'pipe' });
  return {
    kind: 'haproxy',
    port: lbPort,
    // SIGTERM: stop at once; the instances behind are stopped next anyway.
    stopSignal: 'SIGTERM',
    launch: {
      command: 'haproxy',
      // -db: stay in the foreground (the topology tracks its pid) and log to stderr.
      args: ['-db', '-f', config],
      cwd: stateDir,
      env: { PATH: process.env.PATH ?? '' },
      logFile: path.join(logDir, 'haproxy.log'),
    },
    ready: { type: 'http', url: `http://127.0.0.1:${lbPort}/ready` },
  };
}

/** HAProxy's runtime API socket of a topology (the `stats socket` of haproxy.cfg). */
export const haproxySocket = (stateDir: string) => path.join(stateDir, 'haproxy.sock');

/** Sends one command to HAProxy's runtime API and answers its reply. */
export function haproxyCommand(stateDir: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const connection = net.createConnection(haproxySocket(stateDir), () => connection.end(`${command}\n`));
    connection.on('data', (chunk) => {
      answer += chunk;
    });
    connection.once('error', reject);
    connection.once('close', () => resolve(answer));
  });
}

/** Requests HAProxy has sent to an instance (`instance1`, …) and not yet seen answered: `show stat`'s scur. */
export async function requestsInFlight(stateDir: string, server: string): Promise<number> {
  const [header, ...rows] = (await haproxyCommand(stateDir, 'show stat')).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'instances' && cells[1] === server);
  return Number(row?.[columns.indexOf('scur')] ?? 0);
}
