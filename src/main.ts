import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildContainer, closeContainer } from './composition/container';
import { createApp } from './composition/create-app';
import { TOKENS } from './composition/tokens';
import { type AppConfig, ConfigError, describeDatabase, loadConfig } from './infrastructure/config/config';
import type { Logger } from './infrastructure/logging/logger';

/** How long in-flight requests may take to finish after SIGTERM/SIGINT. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = readConfigOrExit();
  const container = await buildContainer(config);
  const logger = container.get<Logger>(TOKENS.Logger);
  const server = createApp(container).listen(config.port);
  server.once('listening', () =>
    logger.info(
      {
        port: (server.address() as AddressInfo).port,
        storage: describeDatabase(config.database),
        writes: config.apiToken ? 'need the API token' : 'open (API_TOKEN unset)',
      },
      'blog article API is listening',
    ),
  );
  server.once('error', async (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    await closeContainer(container);
    process.exit(1);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing in-flight requests');
    const forced = setTimeout(() => {
      logger.error('in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
    }, SHUTDOWN_TIMEOUT_MS).unref();
    await closeServer(server);
    clearTimeout(forced);
    await closeContainer(container);
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

function readConfigOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

/**
 * Stops accepting connections and resolves when the last request is done. A keep-alive
 * connection becomes idle when its request finishes; sweeping idle ones closes it then,
 * instead of after the keep-alive timeout.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
