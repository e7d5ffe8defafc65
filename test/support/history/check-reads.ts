import type { RequestRecord } from '../load/request-log';
import type { Anomaly } from './anomaly';
import { type Observation, outcomeOf } from './operation-facts';

/** A read that showed something, and when it ended. */
interface ShownBy {
  read: string;
  endedAt: number;
}

/** What one client has seen of one article so far, with the read that showed it. */
interface Seen {
  version?: ShownBy & { version: number };
  /** It existed (any visibility). */
  existed?: ShownBy;
  /** A list showed it, or a get by id showed it visible. */
  visible?: ShownBy;
}

export interface ReadCheckOptions {
  /**
   * How far behind the data a read is served from may be (0: never behind). A later read of a
   * client may miss what an earlier one showed when it started this soon after that one ended:
   * each may have been served by another replica.
   */
  staleWithinMs?: number;
}

/**
 * Monotonic reads per client: once a client has seen an article (at a version, or visible), none
 * of its later reads may show it at a lower version, missing (unless a delete of it had been
 * sent by then), or left out of a list that covers its id (unless a delete, or an update that may
 * hide it, had been sent by then). Any client's write counts, whatever its answer but a 4xx: a
 * write without an answer may have taken effect. A create's own answer is not counted as a read:
 * a replica may not yet have replayed a commit it has flushed (ADR 0025), so reading one's own
 * write back is not checked here, only that a client's reads never go back further than
 * `staleWithinMs`.
 */
export function checkReads(history: readonly RequestRecord[], options: ReadCheckOptions = {}): Anomaly[] {
  const staleWithinMs = options.staleWithinMs ?? 0;
  const excuses = excusesOf(history);
  const anomalies: Anomaly[] = [];
  for (const [client, reads] of readsByClient(history)) {
    const seen = new Map<number, Seen>();
    const reported = new Set<number>();
    for (const [index, { record, observed }] of reads.entries()) {
      const label = `${record.operation} #${index + 1}`;
      const excused = (id: number, by: 'delete' | 'hide') => (excuses[by].get(id) ?? Infinity) < record.endedAt;
      const report = (articleId: number, earlier: ShownBy, earlierState: string, later: string) => {
        if (reported.has(articleId) || record.startedAt - earlier.endedAt < staleWithinMs) return;
        reported.add(articleId);
        anomalies.push({ kind: 'stale-read', client, articleId, earlier: `${earlierState} (${earlier.read})`, later });
      };
      for (const article of observed.present) {
        const before = seen.get(article.id)?.version;
        if (before && article.version !== undefined && article.version < before.version) {
          report(article.id, before, `version ${before.version}`, `version ${article.version} (${label})`);
        }
      }
      for (const id of observed.missing) {
        const existed = seen.get(id)?.existed;
        if (existed && !excused(id, 'delete')) report(id, existed, 'present', `missing (${label})`);
      }
      const range = observed.listed?.covers;
      if (range) {
        const listed = new Set(observed.listed?.ids);
        for (const [id, { visible }] of seen) {
          if (!visible || id <= range.after || id > range.upTo || listed.has(id)) continue;
          if (!excused(id, 'delete') && !excused(id, 'hide')) report(id, visible, 'visible', `not listed (${label})`);
        }
      }
      remember(seen, observed, { read: label, endedAt: record.endedAt });
    }
  }
  return anomalies;
}

function remember(seen: Map<number, Seen>, observed: Observation, shownBy: ShownBy): void {
  const stateOf = (id: number) => {
    const state = seen.get(id) ?? {};
    seen.set(id, state);
    return state;
  };
  for (const article of observed.present) {
    const state = stateOf(article.id);
    if (article.version !== undefined && article.version > (state.version?.version ?? 0)) {
      state.version = { version: article.version, ...shownBy };
    }
    state.existed = shownBy;
    if (article.visible) state.visible = shownBy;
    else delete state.visible;
  }
  for (const id of observed.listed?.ids ?? []) {
    const state = stateOf(id);
    state.existed = shownBy;
    state.visible = shownBy;
  }
  for (const id of observed.missing) seen.delete(id);
}

/** Each client's successful reads, in the order it sent them (a client sends one at a time). */
function readsByClient(history: readonly RequestRecord[]) {
  const byClient = new Map<string, { record: RequestRecord; observed: Observation }[]>();
  for (const record of history) {
    const observed = record.facts?.kind === 'read' ? record.facts.observed : undefined;
    if (record.client === undefined || !observed) continue;
    const reads = byClient.get(record.client) ?? [];
    reads.push({ record, observed });
    byClient.set(record.client, reads);
  }
  for (const reads of byClient.values()) reads.sort((a, b) => a.record.startedAt - b.record.startedAt);
  return byClient;
}

/** The first time a delete of each article was sent, and an update that may hide it. */
function excusesOf(history: readonly RequestRecord[]) {
  const excuses = { delete: new Map<number, number>(), hide: new Map<number, number>() };
  for (const record of history) {
    const facts = record.facts;
    if ((facts?.kind !== 'delete' && facts?.kind !== 'update') || outcomeOf(record) === 'failed') continue;
    if (facts.kind === 'update' && facts.visible === true) continue;
    const by = facts.kind === 'delete' ? excuses.delete : excuses.hide;
    by.set(facts.articleId, Math.min(by.get(facts.articleId) ?? Infinity, record.startedAt));
  }
  return excuses;
}
