import cluster, { type Worker } from 'node:cluster';
import type { AppConfig } from '../infrastructure/config/config';
import type { Logger } from '../infrastructure/logging/logger';
import { openDataSource } from '../infrastructure/persistence/typeorm/data-source';
import { onStopSignal } from './stop-signals';

/** A worker that dies this soon after its start is not restarted: it would only die again. */
const MIN_WORKER_LIFETIME_MS = 5_000;

/**
 * WORKERS > 1: this process serves nothing itself. It forks the workers, which share the port,
 * replaces a worker that crashes, and on SIGTERM/SIGINT passes the signal on, waits for every
 * worker to drain, and exits 0 if all of them did.
 *
 * It never touches PostgreSQL, so an outage cannot end it: each worker connects and migrates on
 * its own, under the migration's advisory lock, retrying while the database is away. SQLite
 * has no such lock, and workers migrating one file together would race, so on SQLite this
 * process migrates the file once before forking (a file that cannot be opened stops the start).
 */
export async function runClusterPrimary(config: AppConfig, logger: Logger): Promise<void> {
  if (config.database.kind === 'sqlite') await (await openDataSource(config.database)).destroy();
  let stopping = false;
  const startedAt = new Map<Worker, number>();
  const exitCodes: number[] = [];
  const fork = () => startedAt.set(cluster.fork(), Date.now());

  cluster.on('exit', (worker, code, signal) => {
    const livedMs = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      exitCodes.push(code ?? 1);
      if (startedAt.size === 0) {
        const clean = exitCodes.every((exitCode) => exitCode === 0);
        logger.info({ workers: exitCodes.length, clean }, 'stopped: every worker has exited');
        process.exit(clean ? 0 : 1);
      }
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal, livedMs }, 'a worker exited unexpectedly');
    if (livedMs >= MIN_WORKER_LIFETIME_MS) fork();
    else if (startedAt.size === 0) process.exit(1);
  });

  onStopSignal((signal) => {
    stopping = true;
    logger.info({ signal, workers: startedAt.size }, 'stopping: passing the signal to every worker');
    for (const worker of startedAt.keys()) worker.process.kill(signal);
  });

  for (let i = 0; i < config.workers; i++) fork();
  logger.info({ workers: config.workers, primaryPid: process.pid }, 'started the workers');
}
