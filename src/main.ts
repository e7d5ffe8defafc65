import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createTerminus } from '@godaddy/terminus';
import { CheckReadiness } from './application';
import { buildContainer, closeContainer } from './composition/container';
import { createApp } from './composition/create-app';
import { TOKENS } from './composition/tokens';
import { type AppConfig, ConfigError, describeDatabase, loadConfig } from './infrastructure/config/config';
import type { Logger } from './infrastructure/logging/logger';

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

  // SIGTERM/SIGINT: /ready turns 503 at once; connections are still accepted for the drain
  // time, so that load balancers notice; then the listener closes, idle keep-alive sockets
  // are closed, in-flight requests finish (answered with Connection: close), the database
  // closes and the process exits 0. Past SHUTDOWN_TIMEOUT_MS, open sockets are cut.
  createTerminus(server, {
    signals: ['SIGTERM', 'SIGINT'],
    useExit0: true,
    timeout: config.shutdownTimeoutMs - config.shutdownDrainMs,
    beforeShutdown: async () => {
      container.get(CheckReadiness).beginShutdown();
      logger.info({ drainMs: config.shutdownDrainMs }, 'stopping: /ready answers 503; draining');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      logger.info('stopping: no new connections; finishing in-flight requests');
    },
    onSignal: async () => {
      await closeContainer(container);
      logger.info('stopped');
    },
    logger: (message, error) => logger.error({ err: error }, message),
  });
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

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
