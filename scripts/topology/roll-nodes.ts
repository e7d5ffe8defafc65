import { dbServerStates, haproxyCommand, haproxyDbSocket } from './haproxy';
import { type ClusterMember, clusterMembers } from './patroni';
import { waitUntil } from './processes';
import type { Component, TopologyState } from './state';
import { nodesOf, restartComponent, switchover } from './topology';

/** One step of a rolling restart of the database nodes. */
export type NodeRollStep =
  | { kind: 'restarted'; node: string; oldPid: number; newPid: number; ms: number }
  | { kind: 'switched-over'; from: string; to: string; ms: number };

/** Longest wait for a restarted node to stream again as a synchronous standby (it catches up first). */
const SYNC_AGAIN_TIMEOUT_MS = 60_000;
/** Longest wait for the database HAProxy's checks to see a node back (one good check, 1 s apart). */
const BACK_IN_TIMEOUT_MS = 10_000;

/**
 * `npm run topology -- roll-nodes`: restarts every PostgreSQL node (Patroni and its PostgreSQL,
 * with the binaries and settings installed now), one at a time, the way a minor upgrade or a
 * restart-only setting is applied: each replica first, then a switchover to one of them, then
 * the old primary, now a replica. Writes pause only while the primary changes hands; reads go
 * on, on the other replica or the primary.
 */
export async function rollNodes(
  state: TopologyState,
  onStep: (step: NodeRollStep) => void = () => {},
): Promise<NodeRollStep[]> {
  const steps: NodeRollStep[] = [];
  const record = (step: NodeRollStep) => {
    steps.push(step);
    onStep(step);
  };
  const leader = await leaderName(state);
  for (const node of patroniComponents(state).filter((component) => component.node?.name !== leader)) {
    record(await restartReplica(state, node));
  }
  const began = performance.now();
  const { from, to } = await switchover(state);
  record({ kind: 'switched-over', from, to, ms: Math.round(performance.now() - began) });
  await waitUntil(() => everyStandbySynchronous(state), SYNC_AGAIN_TIMEOUT_MS, `${from} to follow ${to}`);
  const oldLeader = patroniComponents(state).find((component) => component.node?.name === from);
  if (oldLeader) record(await restartReplica(state, oldLeader));
  return steps;
}

/**
 * One replica's restart: the database HAProxy stops sending it new sessions first (reads then
 * go to the other replica; a read cut by the stop is retried on the primary by the service);
 * Patroni stops (it stops its PostgreSQL, fast), starts again, and the node streams again as a
 * synchronous standby before HAProxy takes it back. Only then is the next node touched: with
 * one synchronous standby stopped, the other carries every commit.
 */
async function restartReplica(state: TopologyState, patroni: Component): Promise<NodeRollStep> {
  const name = patroni.node?.name ?? '';
  const began = performance.now();
  const oldPid = patroni.pid;
  await setReadServers(state, name, 'maint');
  await restartComponent(state, patroni);
  await waitUntil(
    () => everyStandbySynchronous(state),
    SYNC_AGAIN_TIMEOUT_MS,
    `${name} to stream as a synchronous standby`,
  );
  await setReadServers(state, name, 'ready');
  await waitUntil(
    async () => (await dbServerStates(state.stateDir, 'replicas')).get(name) === 'UP',
    BACK_IN_TIMEOUT_MS,
    `the database HAProxy to see ${name} up`,
  );
  return { kind: 'restarted', node: name, oldPid, newPid: patroni.pid, ms: Math.round(performance.now() - began) };
}

/** A node's servers in the replicas' port and among the primary port's stand-ins (which track `standbys`). */
async function setReadServers(state: TopologyState, name: string, to: 'maint' | 'ready'): Promise<void> {
  for (const backend of ['replicas', 'standbys']) {
    await haproxyCommand(state.stateDir, `set server ${backend}/${name} state ${to}`, haproxyDbSocket(state.stateDir));
  }
}

const patroniComponents = (state: TopologyState) => state.components.filter((component) => component.node);

async function leaderName(state: TopologyState): Promise<string> {
  const leader = (await clusterMembers(nodesOf(state))).find((member) => member.role === 'leader');
  if (!leader) throw new Error('no leader: the cluster must be healthy before its nodes are restarted');
  return leader.name;
}

/** One leader, and every other node streaming as a synchronous standby (synchronous_node_count: 2). */
async function everyStandbySynchronous(state: TopologyState): Promise<boolean> {
  const members: ClusterMember[] = await clusterMembers(nodesOf(state)).catch(() => []);
  const standbys = members.filter((member) => member.role !== 'leader');
  return (
    members.length === nodesOf(state).length &&
    members.filter((member) => member.role === 'leader' && member.state === 'running').length === 1 &&
    // Patroni 3.0 says `running` of a standby that older and newer releases call `streaming`.
    standbys.every((member) => member.role === 'sync_standby' && ['running', 'streaming'].includes(member.state))
  );
}
