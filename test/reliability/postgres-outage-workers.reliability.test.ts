import { describeDatabaseFault } from './database-outage-scenario';

/** The outage with WORKERS=2: no server process dies, and the primary replaces none. */
describeDatabaseFault({
  file: 'postgres-outage-workers',
  scenario: 'outage, 2 workers',
  done: 'immediate shutdown, down 10 s, started again',
  workers: 2,
  unreachable: true,
  takeAway: ({ server }) => server.stop('immediate'),
  bringBack: ({ server }) => server.start(),
});
