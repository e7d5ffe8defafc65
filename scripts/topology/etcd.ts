import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Component } from './state';
import { renderTemplate } from './templates';

/**
 * The one etcd member (deploy/etcd/etcd.yml), Patroni's store: clients on the loopback and on
 * `networkHost` (the root namespace's address on the nodes' network, when they have one).
 */
export function etcdComponent(
  repoRoot: string,
  stateDir: string,
  logDir: string,
  ports: { client: number; peer: number },
  networkHost: string | undefined,
): Omit<Component, 'pid'> {
  const config = path.join(stateDir, 'etcd.yml');
  const clientUrls = [`http://127.0.0.1:${ports.client}`];
  if (networkHost) clientUrls.push(`http://${networkHost}:${ports.client}`);
  fs.writeFileSync(
    config,
    renderTemplate(repoRoot, 'etcd/etcd.yml', {
      DATA_DIR: path.join(stateDir, 'etcd'),
      CLIENT_URLS: clientUrls.join(','),
      // What Patroni's client is told to use (it asks etcd for its members' URLs).
      ADVERTISE_CLIENT_URL: clientUrls.at(-1) ?? '',
      PEER_PORT: ports.peer,
    }),
  );
  return {
    kind: 'etcd',
    port: ports.client,
    stopSignal: 'SIGTERM',
    launch: {
      command: 'etcd',
      args: ['--config-file', config],
      cwd: stateDir,
      env: { PATH: process.env.PATH ?? '' },
      logFile: path.join(logDir, 'etcd.log'),
    },
    ready: { type: 'http', url: `http://127.0.0.1:${ports.client}/health` },
  };
}

/**
 * Deletes the cluster's keys (Patroni's namespace and scope, deploy/patroni/patroni.yml): the
 * next node to start finds no cluster and bootstraps one, as a restore needs.
 */
export function forgetCluster(etcdPort: number): void {
  execFileSync('etcdctl', [`--endpoints=http://127.0.0.1:${etcdPort}`, 'del', '--prefix', '/blog-topology/blog/'], {
    env: { PATH: process.env.PATH ?? '', ETCDCTL_API: '3' },
    stdio: 'pipe',
  });
}
