import { haproxyCommand, instanceServerStatus, instanceServersByPort, requestsInFlight } from './haproxy';
import { waitUntil } from './processes';
import type { TopologyState } from './state';
import { restartComponent } from './topology';

/** What one instance's replacement took. */
export interface RolledInstance {
  server: string;
  oldPid: number;
  newPid: number;
  /** From taking it out of HAProxy to HAProxy sending it requests again. */
  ms: number;
}

/** Longest wait for the requests an instance is answering: the service answers within 3 s. */
const IN_FLIGHT_TIMEOUT_MS = 10_000;
/** Longest wait for HAProxy's checks to see a fresh instance up (two good checks, 250 ms apart). */
const BACK_IN_TIMEOUT_MS = 10_000;

/**
 * `npm run topology -- roll`: replaces each service instance in turn with a fresh process of the
 * current build (dist/), one at a time, so the others carry the traffic. For each: HAProxy stops
 * sending it requests (maintenance, through its runtime API) before anything else, so no client
 * meets it while it stops; its requests in flight finish; SIGTERM (it drains and exits); the same
 * command starts again and answers /ready; HAProxy takes it back, and the next waits until its
 * checks say it is up.
 */
export async function roll(
  state: TopologyState,
  onRolled: (rolled: RolledInstance) => void = () => {},
): Promise<RolledInstance[]> {
  const servers = await instanceServersByPort(state.stateDir);
  const rolled: RolledInstance[] = [];
  for (const instance of state.components.filter((component) => component.kind === 'instance')) {
    const server = servers.get(instance.port);
    if (!server) throw new Error(`HAProxy has no server for the instance on port ${instance.port}`);
    const began = performance.now();
    const oldPid = instance.pid;
    await haproxyCommand(state.stateDir, `set server instances/${server} state maint`);
    await waitUntil(
      async () => (await requestsInFlight(state.stateDir, server)) === 0,
      IN_FLIGHT_TIMEOUT_MS,
      `the requests in flight on ${server} to finish`,
    );
    await restartComponent(state, instance);
    await haproxyCommand(state.stateDir, `set server instances/${server} state ready`);
    await waitUntil(
      async () => (await instanceServerStatus(state.stateDir, server)) === 'UP',
      BACK_IN_TIMEOUT_MS,
      `HAProxy to see ${server} up`,
    );
    const done: RolledInstance = { server, oldPid, newPid: instance.pid, ms: Math.round(performance.now() - began) };
    rolled.push(done);
    onRolled(done);
  }
  return rolled;
}
