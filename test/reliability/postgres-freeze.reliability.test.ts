import { describeDatabaseFault } from './database-outage-scenario';

/**
 * Harder than a stop: PostgreSQL frozen (SIGSTOP on the server and every backend), so that
 * connections stay open and nothing answers, as when its host hangs or the network drops
 * packets silently. Only timeouts can bound the answers here; a stopped server refuses at once.
 */
describeDatabaseFault({
  file: 'postgres-freeze',
  scenario: 'frozen',
  done: 'server and backends frozen (SIGSTOP) 10 s, then resumed',
  unreachable: true,
  takeAway: async ({ server }) => server.freeze(),
  bringBack: async ({ server }) => server.thaw(),
});
