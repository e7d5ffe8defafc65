// First: a Node.js line the service does not run on ends here, in one line (see the module).
import { nodeLineWarning } from './process/refuse-unsupported-node';
// Then: from the process's first moment, a stop signal ends it cleanly (see the module).
import './process/stop-signals';
// Then: the heap grows little past its live size, so that the whole list's garbage is freed early.
import './process/heap-growth';
import 'reflect-metadata';
// Then, on its own: tracing patches node:http before Express loads it (imports run in order).
import './instrumentation';
import cluster from 'node:cluster';
import { type AppConfig, ConfigError, loadConfig } from './infrastructure/config/config';
import { createLogger } from './infrastructure/logging/logger';
import { describeSqliteBindingFailure } from './infrastructure/persistence/typeorm/sqlite-binding-failure';
import { startedTracing } from './instrumentation';
import { runClusterPrimary } from './process/cluster-primary';
import { serve } from './process/serve';

/** The entry point: one server process, or with WORKERS > 1 a primary that runs that many. */
async function main(): Promise<void> {
  const config = readConfigOrExit();
  const logger = createLogger(config.logLevel, config.logFormat);
  // Once per start: the cluster's primary says it for its workers.
  if (nodeLineWarning && cluster.isPrimary) logger.warn({ node: process.version }, nodeLineWarning);
  if (config.workers > 1 && cluster.isPrimary) {
    // The primary serves nothing: it has no request to trace (each worker starts its own tracing).
    await startedTracing?.shutdown();
    await runClusterPrimary(config, logger);
  } else {
    await serve(config, startedTracing);
  }
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
  const message = describeSqliteBindingFailure(error) ?? (error instanceof Error ? error.message : error);
  console.error('Failed to start:', message);
  process.exit(1);
});
