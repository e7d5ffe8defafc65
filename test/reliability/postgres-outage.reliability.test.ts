import { describeDatabaseFault } from './database-outage-scenario';

/** The outage: PostgreSQL stopped abruptly (immediate shutdown, as in a crash), then started again. */
describeDatabaseFault({
  file: 'postgres-outage',
  scenario: 'outage',
  done: 'immediate shutdown, down 10 s, started again',
  unreachable: true,
  takeAway: ({ server }) => server.stop('immediate'),
  bringBack: ({ server }) => server.start(),
});
