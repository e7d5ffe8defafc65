import { parseArgs } from 'node:util';
import { roll } from './roll';
import { defaultStateDir, settingsFromEnv } from './settings';
import { describeComponent, loadState } from './state';
import { down, roleLines, status, switchover, up } from './topology';

const USAGE = `Usage: npm run topology -- up | status | switchover | roll | down

up          starts etcd, three PostgreSQL 15 nodes under Patroni, the database HAProxy,
            PgBouncer, INSTANCES service instances and HAProxy on TOPOLOGY_PORT, prints
            "<kind> <pid> <port>" per component ("patroni <pid> <rest_port> <pg_port>" per node,
            then "primary|replica <pid> <pg_port>" by current role) and LB_URL=..., and returns
            once HAProxy answers /ready with 200. On a running topology, starts what is missing.
status      prints the same lines for what is running
switchover  hands the primary role to the synchronous standby (Patroni), returns once the new
            primary takes writes
roll        replaces each service instance in turn with a fresh process of the current build:
            out of HAProxy, its requests finished, stopped, started, ready, back in; prints
            "rolled <server> <old pid> -> <new pid> in <ms> ms" per instance
down        stops everything, removes the state directory and the nodes' network

Environment: TOPOLOGY_DIR (default ${defaultStateDir()}), TOPOLOGY_PORT (8080), INSTANCES (2),
PG_POOL_SIZE (10), API_TOKEN (passed to the instances when set), LOG_LEVEL (warn),
TOPOLOGY_NETNS (1: each node in a network namespace of its own when root; 0: all on loopback).`;

async function main(command: string | undefined): Promise<number> {
  const settings = settingsFromEnv(process.env);
  switch (command) {
    case 'up': {
      // Interrupted while starting: stop what was started rather than leave it running.
      process.once('SIGINT', () => {
        console.error('interrupted: stopping what was started');
        void down(settings.stateDir).finally(() => process.exit(130));
      });
      const state = await up(settings);
      for (const component of state.components) console.log(describeComponent(component));
      for (const line of await roleLines(state)) console.log(line);
      console.log(`LB_URL=${state.lbUrl}`);
      return 0;
    }
    case 'status': {
      const found = status(settings.stateDir);
      if (!found) {
        console.error(`no topology in ${settings.stateDir}`);
        return 1;
      }
      for (const component of found.running) console.log(describeComponent(component));
      for (const line of await roleLines(found.state)) console.log(line);
      for (const component of found.stopped) console.error(`stopped: ${describeComponent(component)}`);
      console.log(`LB_URL=${found.state.lbUrl}`);
      return found.stopped.length === 0 ? 0 : 1;
    }
    case 'switchover': {
      const state = loadState(settings.stateDir);
      if (!state) {
        console.error(`no topology in ${settings.stateDir}`);
        return 1;
      }
      const { from, to } = await switchover(state);
      console.log(`switched over from ${from} to ${to}`);
      for (const line of await roleLines(state)) console.log(line);
      return 0;
    }
    case 'roll': {
      const state = loadState(settings.stateDir);
      if (!state) {
        console.error(`no topology in ${settings.stateDir}`);
        return 1;
      }
      await roll(state, ({ server, oldPid, newPid, ms }) =>
        console.log(`rolled ${server} ${oldPid} -> ${newPid} in ${ms} ms`),
      );
      return 0;
    }
    case 'down':
      await down(settings.stateDir);
      return 0;
    default:
      console.error(USAGE);
      return command === undefined ? 0 : 2;
  }
}

/**
 * The command, from the one positional argument; undefined (the usage, exit 0) for none or
 * --help. A flag other than --help, or a second argument, is an error of its own: exit 2.
 */
function commandOf(argv: string[]): string | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean' } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return undefined;
  if (positionals.length > 1) throw new TypeError(`unexpected argument ${positionals[1]}`);
  return positionals[0];
}

async function run(argv: string[]): Promise<number> {
  let command: string | undefined;
  try {
    command = commandOf(argv);
  } catch (error) {
    // parseArgs' first sentence names the argument; its second gives advice the usage gives better.
    console.error(`topology: ${(error as Error).message.split('. ')[0]}\n\n${USAGE}`);
    return 2;
  }
  return main(command);
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(`topology: ${error.message}`);
    process.exitCode = 1;
  },
);
