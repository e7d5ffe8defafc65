import { parseArgs } from 'node:util';
import { ArgumentError, backupTypeOf, restoreTargetOf } from './backup-arguments';
import { backupLines, listBackups, takeBackup } from './backups';
import { lastArchivedWal } from './pgbackrest';
import { flushArchive, restore } from './restore';
import { roll } from './roll';
import { type NodeRollStep, rollNodes } from './roll-nodes';
import { defaultStateDir, settingsFromEnv } from './settings';
import { describeComponent, loadState, type TopologyState } from './state';
import { down, roleLines, status, switchover, up } from './topology';

const USAGE = `Usage: npm run topology -- up | status | switchover | roll | roll-nodes | backup [--type full|diff|incr]
                           | restore --to <ISO 8601 time | latest> | down

up          starts etcd, three PostgreSQL 15 nodes under Patroni, the database HAProxy,
            PgBouncer, INSTANCES service instances and HAProxy on TOPOLOGY_PORT, prints
            "<kind> <pid> <port>" per component ("patroni <pid> <rest_port> <pg_port>" per node,
            then "primary|replica <pid> <pg_port>" by current role) and LB_URL=..., and returns
            once HAProxy answers /ready with 200. On a running topology, starts what is missing.
status      prints the same lines for what is running, then "backup <label> <type> <end>" per
            backup in the repository and "wal <segment> archived <age> s ago" for the newest
            archived WAL
switchover  hands the primary role to the synchronous standby (Patroni), returns once the new
            primary takes writes
roll        replaces each service instance in turn with a fresh process of the current build:
            out of HAProxy, its requests finished, stopped, started, ready, back in; prints
            "rolled <server> <old pid> -> <new pid> in <ms> ms" per instance
roll-nodes  restarts every PostgreSQL node (Patroni and PostgreSQL) in turn: the replicas, each
            out of the database HAProxy until it streams as a synchronous standby again, then
            a switchover, then the old primary; prints "restarted <node> <old pid> -> <new pid>
            in <ms> ms" per node and "switched over from <node> to <node> in <ms> ms"
backup      backs up the primary into the repository (full unless --type says), prints
            "backup <label> <end time, ISO 8601>"
restore     stops the instances and the nodes, restores the cluster through Patroni to --to (a
            time after the end of the first backup and not in the future, or latest: the end
            of the archived WAL), rebuilds the replicas, starts the instances; prints
            "restored <time of the last transaction replayed>" once the service answers
down        stops everything, removes the state directory and the nodes' network

Environment: TOPOLOGY_DIR (default ${defaultStateDir()}), TOPOLOGY_PORT (8080), INSTANCES (2),
PG_POOL_SIZE (10), API_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS and WEBHOOK_RETRY_SCHEDULE (passed
to the instances when set), LOG_LEVEL (warn),
TOPOLOGY_NETNS (1: each node in a network namespace of its own when root; 0: all on loopback).`;

interface Invocation {
  readonly command: string | undefined;
  readonly type?: string;
  readonly to?: string;
}

async function main({ command, type, to }: Invocation): Promise<number> {
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
      for (const line of backupLines(found.state)) console.log(line);
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
      const state = runningState(settings.stateDir);
      if (!state) return 1;
      await roll(state, ({ server, oldPid, newPid, ms }) =>
        console.log(`rolled ${server} ${oldPid} -> ${newPid} in ${ms} ms`),
      );
      return 0;
    }
    case 'roll-nodes': {
      const state = runningState(settings.stateDir);
      if (!state) return 1;
      await rollNodes(state, (step) => console.log(describeStep(step)));
      return 0;
    }
    case 'backup': {
      const state = runningState(settings.stateDir);
      if (!state) return 1;
      const set = await takeBackup(state, backupTypeOf(type));
      console.log(`backup ${set.label} ${set.endedAt.toISOString()}`);
      return 0;
    }
    case 'restore': {
      const state = runningState(settings.stateDir);
      if (!state) return 1;
      const target = restoreTargetOf(to, new Date(), listBackups(state)[0]?.endedAt);
      // Everything committed up to now into the archive; with no primary, the archive ends where it ends.
      if (!(await flushArchive(state)) && target !== 'latest') {
        const end = lastArchivedWal(state.postgresDir)?.archivedAt;
        if (!end || target > end) {
          throw new ArgumentError(
            `--to ${to}: after the end of the archive (${end?.toISOString() ?? 'none'}), and no primary to archive the rest; use latest`,
          );
        }
      }
      const result = await restore(state, settings.repoRoot, target);
      console.log(`restored ${result.reached?.toISOString() ?? 'unknown'}`);
      const seconds = (ms: number | null) => (ms === null ? '?' : (ms / 1000).toFixed(1));
      const megabytes = (bytes: number | null) => (bytes === null ? '?' : (bytes / 2 ** 20).toFixed(1));
      console.log(
        `restore files ${seconds(result.filesMs)} s, WAL replay ${seconds(result.redoMs)} s (${result.walSegments.length} archived segments, ${megabytes(result.redoBytes)} MB of WAL positions), files to promotion ${seconds(result.replayMs)} s, total ${seconds(result.totalMs)} s`,
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

function describeStep(step: NodeRollStep): string {
  return step.kind === 'restarted'
    ? `restarted ${step.node} ${step.oldPid} -> ${step.newPid} in ${step.ms} ms`
    : `switched over from ${step.from} to ${step.to} in ${step.ms} ms`;
}

/** The state of a topology that was brought up, or null (said on stderr). */
function runningState(stateDir: string): TopologyState | null {
  const state = loadState(stateDir);
  if (!state) console.error(`no topology in ${stateDir}`);
  return state;
}

/** Which command takes each flag: any other command given it is an error (exit 2). */
const FLAG_OWNERS = { type: 'backup', to: 'restore' } as const;

/**
 * The command, from the one positional argument; undefined (the usage, exit 0) for none or
 * --help. A flag the command does not take, or a second argument, is an error of its own: exit 2.
 */
function invocationOf(argv: string[]): Invocation {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean' }, type: { type: 'string' }, to: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return { command: undefined };
  if (positionals.length > 1) throw new TypeError(`unexpected argument ${positionals[1]}`);
  const command = positionals[0];
  for (const [flag, owner] of Object.entries(FLAG_OWNERS)) {
    if (values[flag as keyof typeof FLAG_OWNERS] !== undefined && command !== owner) {
      throw new TypeError(`--${flag} applies to ${owner} only`);
    }
  }
  return { command, type: values.type, to: values.to };
}

async function run(argv: string[]): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = invocationOf(argv);
  } catch (error) {
    // One line: parseArgs' first sentence names the argument; its second gives advice --help gives better.
    console.error(`topology: ${(error as Error).message.split('. ')[0]} (--help lists the commands and flags)`);
    return 2;
  }
  try {
    return await main(invocation);
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    console.error(`topology: ${error.message}`);
    return 2;
  }
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
