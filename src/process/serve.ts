import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AuthenticateRequest,
  DeliverWebhooks,
  PurgeExpiredIdempotencyKeys,
  PurgeExpiredRevisions,
  type RecordedWriteEvents,
  ServiceLifecycle,
} from '../application';
import { buildContainer, closeContainer } from '../composition/container';
import { createApp } from '../composition/create-app';
import { TOKENS } from '../composition/tokens';
import { type AppConfig, describeDatabase } from '../infrastructure/config/config';
import type { Logger } from '../infrastructure/logging/logger';
import type { Tracing } from '../infrastructure/observability/tracing';
import { startRepeating } from '../infrastructure/scheduling/repeating-task';
import { drainConnectionsOf } from '../interfaces/http/connection-draining';
import { httpServerFor } from '../interfaces/http/http-server';
import { onStopSignal } from './stop-signals';
import { startWebhookTimers } from './webhook-timers';

const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const PRESENCE_AT_START_MS = 500;
/**
 * Expired Idempotency-Key records and revisions are purged this often (in bounded batches), by
 * every process, the first time a few seconds after the start (not on its path).
 */
const KEY_PURGE = { intervalMs: 60_000, firstDelayMs: 2_000 };
const REVISION_PURGE = { intervalMs: 60_000, firstDelayMs: 5_000 };

/**
 * Each instance reads the keys revoked since its last read this often, so that a revoked key is
 * refused within KEY_REVOCATION_BOUND_MS (1 s) everywhere; and writes when its keys were last
 * used once a minute (one write for all their requests).
 */
const KEY_REFRESH_MS = 400;
const KEY_USE_FLUSH_MS = 60_000;

/** Keeps the key cache fresh; a failure is logged once, and again only after a success. */
function startKeyRefresh(authentication: AuthenticateRequest, logger: Logger) {
  let failing = false;
  return startRepeating(
    async () => {
      await authentication.refresh();
      if (failing) logger.info('keys read again: revocations are seen within a second');
      failing = false;
    },
    KEY_REFRESH_MS,
    (error) => {
      if (!failing) logger.warn({ err: error }, 'keys could not be read; each request reads its key until they can');
      failing = true;
    },
    0,
  );
}

/** A purge repeated on a timer; what it removed, and a failure (retried at the next run), go to the log. */
function startPurge(
  purge: { execute(): Promise<number> },
  what: string,
  timing: { intervalMs: number; firstDelayMs: number },
  logger: Logger,
) {
  return startRepeating(
    async () => {
      const removed = await purge.execute();
      if (removed > 0) logger.info({ removed }, `${what} purged`);
    },
    timing.intervalMs,
    (error) => logger.warn({ err: error }, `purge of ${what} failed; retrying later`),
    timing.firstDelayMs,
  );
}

/**
 * One server process: container, migrations, listen; drains and exits on SIGTERM/SIGINT. With
 * tracing, the spans still queued are exported before the exit.
 */
export async function serve(config: AppConfig, tracing: Tracing | null = null): Promise<void> {
  const container = await buildContainer(config, tracing ? { tracer: tracing.tracer } : {});
  const logger = container.get<Logger>(TOKENS.Logger);
  // Whether any webhook subscription exists, read once before the first request: until it is
  // known, writes record their events (the safe side). A database not there yet does not hold
  // the start back: at most PRESENCE_AT_START_MS, then the timer reads it again.
  await Promise.race([
    container
      .get<RecordedWriteEvents>(TOKENS.WriteEvents)
      .refresh()
      .catch(() => undefined),
    sleep(PRESENCE_AT_START_MS, undefined, { ref: false }),
  ]);
  const server = httpServerFor(createApp(container)).listen(config.port);
  // Idle keep-alive connections stay open longer than the usual client and load-balancer idle
  // timeouts (60 s), so that the server is not the side closing a connection at the moment a
  // client reuses it (the client would see a reset). Shutdown closes idle ones at once anyway.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const connections = drainConnectionsOf(server);
  const authentication = container.get(AuthenticateRequest);
  const flushUses = () => authentication.flushUses();
  const timers = [
    startPurge(container.get(PurgeExpiredIdempotencyKeys), 'expired Idempotency-Key records', KEY_PURGE, logger),
    startPurge(container.get(PurgeExpiredRevisions), 'expired article revisions', REVISION_PURGE, logger),
    startKeyRefresh(authentication, logger),
    startRepeating(flushUses, KEY_USE_FLUSH_MS, (error) => logger.warn({ err: error }, 'key uses not recorded')),
    ...startWebhookTimers(container.get(TOKENS.WriteEvents), container.get(DeliverWebhooks), logger),
  ];
  server.once('listening', () =>
    logger.info(
      {
        port: (server.address() as AddressInfo).port,
        storage: describeDatabase(config.database),
        writes: config.apiToken ? 'need a key or the API token' : 'need a key once one exists (API_TOKEN unset)',
      },
      'blog article API is listening',
    ),
  );
  server.once('error', async (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    await closeContainer(container);
    await tracing?.shutdown();
    process.exit(1);
  });

  // SIGTERM/SIGINT: /ready turns 503 and answers say Connection: close; connections are still
  // accepted for SHUTDOWN_DRAIN_MS so that load balancers notice; then no new connection is
  // accepted, in-flight requests finish, the database closes and the process exits 0, all
  // within SHUTDOWN_TIMEOUT_MS (past it, open connections are cut and the exit code is 1).
  const stop = async (signal: string) => {
    const startedAt = Date.now();
    container.get(ServiceLifecycle).beginShutdown();
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'stopping: /ready answers 503 while clients drain');
    await sleep(config.shutdownDrainMs);
    logger.info('stopping: no new connections; finishing the requests in flight');
    const outcome = await connections.stop(config.shutdownTimeoutMs - (Date.now() - startedAt));
    if (outcome === 'forced') logger.error('requests still in flight at SHUTDOWN_TIMEOUT_MS were cut');
    for (const timer of timers) timer.stop();
    // Attempts under way finish, within the shutdown's time; any cut off is attempted again elsewhere.
    await container.get(DeliverWebhooks).settle(Math.max(0, config.shutdownTimeoutMs - (Date.now() - startedAt)));
    await flushUses().catch((error: unknown) => logger.warn({ err: error }, 'key uses not recorded at the stop'));
    await closeContainer(container);
    await flushTraces(tracing, config.shutdownTimeoutMs - (Date.now() - startedAt), logger);
    logger.info({ ms: Date.now() - startedAt }, 'stopped');
    process.exit(outcome === 'drained' ? 0 : 1);
  };
  onStopSignal((signal) => void stop(signal));
}

/**
 * The last spans (those of the requests just drained) go out before the exit, within what is
 * left of SHUTDOWN_TIMEOUT_MS: a collector that is away does not hold the exit past it.
 */
async function flushTraces(tracing: Tracing | null, withinMs: number, logger: Logger): Promise<void> {
  if (!tracing) return;
  const flushed = tracing.shutdown().then(
    () => true,
    (error: unknown) => {
      logger.warn({ err: error }, 'the last spans could not be exported');
      return true;
    },
  );
  const timer = sleep(Math.max(withinMs, 0), false, { ref: false });
  if (!(await Promise.race([flushed, timer])))
    logger.warn('the last spans were not exported within SHUTDOWN_TIMEOUT_MS');
}
