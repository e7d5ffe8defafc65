import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clusterMembers, killNode } from '../../scripts/topology/patroni';
import { waitUntil } from '../../scripts/topology/processes';
import { settingsFromEnv, type TopologySettings } from '../../scripts/topology/settings';
import type { Component, TopologyState } from '../../scripts/topology/state';
import {
  down,
  isHealthy,
  leftoverProcesses,
  NODES,
  nodesOf,
  restartComponent,
  stopComponent,
  up,
} from '../../scripts/topology/topology';
import { type FaultWebhookReceiver, startFaultWebhookReceiver } from '../support/fault-webhook-receiver';
import { freePort } from '../support/free-port';
import { LoadGenerator } from '../support/load/load-generator';
import { countByKind } from '../support/load/request-log';
import { runSeed, seededRandom } from '../support/load/seeded-random';
import { ackedCreates, delayFigures, matchArrivals, type Phase, phaseLines } from '../support/load/webhook-arrivals';
import { WriteLedger } from '../support/load/write-ledger';

const TOKEN = randomBytes(16).toString('hex');
const AUTHORIZATION = { authorization: `Bearer ${TOKEN}` };
/**
 * Each writer at most one create per PACE_MS: steady traffic that leaves the two cores room
 * (WEBHOOK_TOPOLOGY_PACE_MS replaces it, to see how a gentler write rate fares).
 */
const PACE_MS = Number(process.env.WEBHOOK_TOPOLOGY_PACE_MS) || 300;
const WRITERS = 20;
const STEADY_MS = 5_000;
const KILLED_INSTANCE_DOWN_MS = 5_000;
const AFTER_FAULT_MS = 5_000;
const RECEIVER_DOWN_MS = 60_000;
const RECEIVER_ERROR_MS = 20_000;
const RECEIVER_SLOW_MS = 30_000;
/**
 * The instances' WEBHOOK_RETRY_SCHEDULE: the default's second and third waits (5 min, 30 min) made
 * 30 s and 1 min, so that the run does not sleep through a schedule (the default's waits are the
 * unit tests', by a moved clock). The receiver's 80 s of down and errors fail at most four
 * attempts of an event.
 */
const RETRY_SCHEDULE = '5s,30s,1m,2m,5m,10m,10m';
/** An event that failed three times has its fourth attempt 1 min ± 20 % after the third: room for it. */
const ALL_ARRIVED_BOUND_MS = 4 * 60_000;
const ARTIFACTS_DIR = path.resolve(__dirname, '../../test-artifacts/topology');

/**
 * Issue 38's proof under faults: the topology of `npm run topology` (two instances, API_TOKEN,
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS, RETRY_SCHEDULE) with one subscription to every event, a
 * receiver in this process, 20 writers creating published articles through HAProxy, through (a)
 * an instance SIGKILLed while its attempts wait on the receiver, (b) the primary's node killed
 * (Patroni fails over; the node rejoins through `up`), (c) the receiver down 60 s and then
 * answering 500 for 20 s, (d) the receiver answering after 15 s (past the 10 s limit) for 30 s.
 * Every acknowledged create's `article.published` arrives, its repeats carry its `webhook-id` and
 * its very body, and nothing is left pending.
 */
describe('webhooks under faults (topology)', () => {
  let settings: TopologySettings;
  let state: TopologyState;
  let workDir: string;
  let receiver: FaultWebhookReceiver;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-topology-webhooks-'));
    receiver = await startFaultWebhookReceiver();
    settings = settingsFromEnv({
      TOPOLOGY_DIR: path.join(workDir, 'state'),
      TOPOLOGY_PORT: String(await freePort()),
      INSTANCES: '2',
      API_TOKEN: TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
    });
    state = await up(settings);
  }, 180_000);

  afterAll(async () => {
    if (state) await down(state.stateDir);
    await receiver?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }, 120_000);

  const instance = (index: number): Component => {
    const found = state.components.filter((component) => component.kind === 'instance')[index];
    if (!found) throw new Error(`no instance #${index}`);
    return found;
  };
  const leader = async (): Promise<Component> => {
    const name = (await clusterMembers(nodesOf(state))).find((member) => member.role === 'leader')?.name;
    const found = state.components.find(
      (component) => component.node?.name !== undefined && component.node.name === name,
    );
    if (!found) throw new Error('no leader');
    return found;
  };
  /** An instance's /metrics, straight from it (not through HAProxy). */
  const metricsOf = async (index: number) =>
    parseMetrics(await (await fetch(`http://127.0.0.1:${instance(index).port}/metrics`)).text());

  it(
    'every acknowledged create’s event arrives, once or more under one webhook-id, through (a)–(d)',
    async () => {
      const wallStart = performance.now();
      const created = await fetch(`${state.lbUrl}/webhook/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AUTHORIZATION },
        body: JSON.stringify({ url: receiver.url, description: 'issue 38 under faults' }),
      });
      expect(created.status).toBe(201);

      const seed = runSeed();
      const ledger = new WriteLedger();
      const runId = `wh${seed.toString(36)}`;
      const load = new LoadGenerator({
        baseUrl: state.lbUrl,
        clients: WRITERS,
        paceMs: PACE_MS,
        mix: { create: 1 },
        ledger,
        random: seededRandom(seed),
        runId,
        maxDurationMs: 15 * 60_000,
        maxRequests: 1_000_000,
        deadlineMs: 15_000,
        headers: AUTHORIZATION,
      }).start();
      const phases: Phase[] = [{ name: 'steady', began: performance.now() }];
      const notes: string[] = [];
      const phase = (name: string) => phases.push({ name, began: performance.now() });
      await sleep(STEADY_MS);

      // (a) Answers held, so that attempts wait on the receiver: with at most 2 in flight per
      // instance, 3 held means instance 0 has one at least when it dies.
      phase('(a) instance 0 SIGKILLed mid-delivery');
      const release = receiver.hold();
      await waitUntil(async () => receiver.held >= 3, 10_000, '3 attempts in flight').catch(() => {});
      notes.push(`(a) attempts held on the receiver when instance 0 was killed: ${receiver.held}`);
      await stopComponent(instance(0), 'SIGKILL');
      release();
      await sleep(KILLED_INSTANCE_DOWN_MS);
      await restartComponent(state, instance(0));
      await sleep(AFTER_FAULT_MS);

      // (b) The primary's node dies; writes come back on the new primary; `up` brings the node back.
      phase('(b) primary node killed');
      killNode(await leader());
      const killedAt = performance.now();
      const writesBack = () =>
        load.records.find((r) => r.operation === 'create' && r.status === 201 && r.startedAt > killedAt);
      await waitUntil(async () => writesBack() !== undefined, 90_000, 'writes to succeed again');
      notes.push(`(b) writes back ${Math.round((writesBack()?.endedAt ?? 0) - killedAt)} ms after the kill`);
      state = await up(settings);
      await waitUntil(async () => isHealthy(await clusterMembers(nodesOf(state)), NODES), 60_000, 'the node to rejoin');
      await sleep(AFTER_FAULT_MS);

      // (c) The receiver refuses connections for 60 s, then answers 500 for 20 s.
      phase('(c) receiver down 60 s, then 500 for 20 s');
      await receiver.setMode('down');
      await sleep(RECEIVER_DOWN_MS / 2);
      const during = await metricsOf(1);
      const oldestDueAge = during.get('webhook_oldest_due_delivery_age_seconds') ?? 0;
      notes.push(
        `(c) halfway down: oldest due delivery waits ${oldestDueAge.toFixed(1)} s, pending ${during.get('webhook_deliveries_pending')}`,
      );
      await sleep(RECEIVER_DOWN_MS / 2);
      await receiver.setMode('error');
      await sleep(RECEIVER_ERROR_MS);
      await receiver.setMode('ok');
      await sleep(AFTER_FAULT_MS);

      // (d) The receiver answers only after 15 s: every attempt meanwhile times out (10 s), arrived.
      phase('(d) receiver answers after 15 s for 30 s');
      await receiver.setMode('slow');
      await sleep(RECEIVER_SLOW_MS);
      await receiver.setMode('ok');
      phase('after');
      await sleep(AFTER_FAULT_MS);
      const records = await load.stop();
      const loadEnded = performance.now();

      // Every acknowledged create's event, and nothing pending any more.
      const acked = ackedCreates(ledger);
      let pending: number | undefined;
      const settleBy = performance.now() + ALL_ARRIVED_BOUND_MS;
      while (performance.now() < settleBy) {
        pending = (await metricsOf(1).catch(() => undefined))?.get('webhook_deliveries_pending');
        if (pending === 0 && matchArrivals(receiver.arrivals, acked).missing.length === 0) break;
        await sleep(2_000);
      }
      const settledAfter = performance.now() - loadEnded;
      const match = matchArrivals(receiver.arrivals, acked);
      const metrics = [await metricsOf(0), await metricsOf(1)];
      const attempts = metrics.map(
        (figures, index) => `instance ${index}: ${JSON.stringify(attemptsByOutcome(figures))}`,
      );
      const arrivalsByMode: Record<string, number> = {};
      for (const arrival of receiver.arrivals) arrivalsByMode[arrival.mode] = (arrivalsByMode[arrival.mode] ?? 0) + 1;
      console.log(
        [
          `seed ${seed}, ${WRITERS} writers at one create per ${PACE_MS} ms: ${records.length} requests ${JSON.stringify(countByKind(records))}`,
          ...notes,
          `arrivals ${receiver.arrivals.length} ${JSON.stringify(arrivalsByMode)} by type ${JSON.stringify(match.types)}; ` +
            `events ${match.events.size}, ${match.repeatedIds} received more than once (${match.repeatArrivals} repeats), ` +
            `${match.conflictingBodies.length} ids with different bodies, ${match.severalIdsForOneArticle.length} articles under several ids, ` +
            `${match.withoutId} without webhook-id, ${match.unacknowledgedPublished} for unacknowledged creates`,
          `acknowledged creates ${acked.length}, missing ${match.missing.length}; pending ${pending}; ` +
            `settled ${(settledAfter / 1000).toFixed(1)} s after the load stopped`,
          `delivery delay (first arrival − acknowledgement) median / p99 / worst: ${delayFigures([...match.delays.values()])}`,
          ...phaseLines(phases, acked, match),
          `attempts by outcome: ${attempts.join('; ')} (instance 0 counts since its restart)`,
          `wall time ${((performance.now() - wallStart) / 1000).toFixed(0)} s`,
        ].join('\n'),
      );
      if (match.missing.length > 0 || pending !== 0) {
        const logs = path.join(ARTIFACTS_DIR, `webhooks-${runId}-logs`);
        fs.cpSync(path.join(state.stateDir, 'logs'), logs, { recursive: true });
        console.log(`instance logs copied to ${logs}; first missing: ${JSON.stringify(match.missing.slice(0, 10))}`);
      }

      expect(acked.length).toBeGreaterThan(500);
      expect(match.missing).toEqual([]);
      expect(match.withoutId).toBe(0);
      expect(match.unparsable).toBe(0);
      expect(Object.keys(match.types)).toEqual(['article.published']);
      expect(match.conflictingBodies).toEqual([]);
      expect(match.severalIdsForOneArticle).toEqual([]);
      expect(pending).toBe(0);
      expect(oldestDueAge).toBeGreaterThan(0);
      // The held attempts of the killed instance, at least, were made again after their lease.
      expect(match.repeatedIds).toBeGreaterThan(0);
    },
    25 * 60_000,
  );

  it('leaves no process behind after down', async () => {
    const started = state;
    await down(started.stateDir);
    expect(leftoverProcesses(started)).toEqual([]);
    expect(fs.existsSync(started.stateDir)).toBe(false);
  }, 120_000);
});

/** Prometheus text: each sample line's name (with its labels) and value. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const found = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (found?.[1] && found[2]) samples.set(found[1], Number(found[2]));
  }
  return samples;
}

function attemptsByOutcome(samples: Map<string, number>): Record<string, number> {
  const outcomes: Record<string, number> = {};
  for (const [name, value] of samples) {
    const found = /^webhook_delivery_attempts_total\{outcome="(\w+)"\}$/.exec(name);
    if (found?.[1]) outcomes[found[1]] = value;
  }
  return outcomes;
}
