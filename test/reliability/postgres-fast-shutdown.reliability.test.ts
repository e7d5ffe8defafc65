import { describeDatabaseFault } from './database-outage-scenario';

/**
 * PostgreSQL stopped cleanly (fast shutdown: open transactions rolled back, sessions ended
 * with 57P01) under write load, then started again: the administrator's restart.
 */
describeDatabaseFault({
  file: 'postgres-fast-shutdown',
  scenario: 'fast shutdown',
  done: 'fast shutdown, down 10 s, started again',
  unreachable: true,
  takeAway: ({ server }) => server.stop('fast'),
  bringBack: ({ server }) => server.start(),
});
