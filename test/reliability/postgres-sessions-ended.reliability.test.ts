import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresSessions } from '../support/postgres-sessions';
import { describeDatabaseFault } from './database-outage-scenario';

const KILL_EVERY_MS = 100;

let killing: Promise<void> | undefined;
let stopKilling = () => {};

/**
 * Every session of the service ended with pg_terminate_backend every 100 ms for 10 s under
 * write load: sessions die idle, mid-statement and mid-transaction, and new ones die right
 * after their handshake. Requests between the kills may succeed; none may be anything but a
 * 2xx or the 503 wrapper.
 */
describeDatabaseFault({
  file: 'postgres-sessions-ended',
  scenario: 'sessions ended every 100 ms',
  done: 'pg_terminate_backend of every session of the service every 100 ms for 10 s',
  unreachable: false,
  takeAway: async ({ url }) => {
    const sessions = await PostgresSessions.open(url);
    let stopping = false;
    stopKilling = () => {
      stopping = true;
    };
    killing = (async () => {
      while (!stopping) {
        await sessions.terminateAll();
        await sleep(KILL_EVERY_MS);
      }
      await sessions.close();
    })();
  },
  bringBack: async () => {
    stopKilling();
    await killing;
  },
});
