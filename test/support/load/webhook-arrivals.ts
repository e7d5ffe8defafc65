import type { Arrival } from '../fault-webhook-receiver';
import type { WriteLedger } from './write-ledger';

/** An acknowledged create: its article, and when its answer came (performance.now()). */
export interface AckedCreate {
  readonly articleId: number;
  readonly ackedAt: number;
}

/** A stretch of the run, from `began` to the next phase's `began` (the last: to the end). */
export interface Phase {
  readonly name: string;
  readonly began: number;
}

/** Everything received under one `webhook-id`. */
interface EventSeen {
  readonly type: string;
  readonly articleId: number | null;
  readonly bodies: Set<string>;
  readonly first: number;
  count: number;
}

/** The acknowledged creates of the ledger, with their article and their answer's time. */
export function ackedCreates(ledger: WriteLedger): AckedCreate[] {
  return ledger.writes.flatMap((write) =>
    write.kind === 'create' && write.outcome === 'acked' && write.articleId !== null && write.answeredAt !== undefined
      ? [{ articleId: write.articleId, ackedAt: write.answeredAt }]
      : [],
  );
}

/**
 * The receiver's arrivals against the acknowledged creates: which have no `article.published`
 * (missing), which `webhook-id` came with different bodies (not one event), which article got
 * its `article.published` under several ids (a create has one), how many arrivals were repeats,
 * and each article's delivery delay (its first arrival − its create's acknowledgement).
 */
export function matchArrivals(arrivals: readonly Arrival[], acked: readonly AckedCreate[]) {
  const events = new Map<string, EventSeen>();
  const publishedIds = new Map<number, Set<string>>();
  const firstPublished = new Map<number, number>();
  const types: Record<string, number> = {};
  let withoutId = 0;
  let unparsable = 0;
  for (const arrival of arrivals) {
    const parsed = parse(arrival.body);
    if (!parsed) unparsable++;
    const type = parsed?.type ?? '(unparsable)';
    types[type] = (types[type] ?? 0) + 1;
    if (arrival.webhookId === undefined) {
      withoutId++;
      continue;
    }
    const articleId = parsed?.articleId ?? null;
    const seen = events.get(arrival.webhookId);
    if (seen) {
      seen.bodies.add(arrival.body);
      seen.count++;
    } else {
      events.set(arrival.webhookId, { type, articleId, bodies: new Set([arrival.body]), first: arrival.at, count: 1 });
    }
    if (type === 'article.published' && articleId !== null) {
      const ids = publishedIds.get(articleId) ?? new Set<string>();
      ids.add(arrival.webhookId);
      publishedIds.set(articleId, ids);
      firstPublished.set(articleId, Math.min(firstPublished.get(articleId) ?? arrival.at, arrival.at));
    }
  }
  const repeated = [...events.entries()].filter(([, seen]) => seen.count > 1);
  const delays = new Map<number, number>();
  for (const create of acked) {
    const first = firstPublished.get(create.articleId);
    if (first !== undefined) delays.set(create.articleId, first - create.ackedAt);
  }
  const ackedIds = new Set(acked.map((create) => create.articleId));
  return {
    events,
    types,
    withoutId,
    unparsable,
    missing: acked.filter((create) => !firstPublished.has(create.articleId)),
    conflictingBodies: repeated.filter(([, seen]) => seen.bodies.size > 1).map(([id]) => id),
    severalIdsForOneArticle: [...publishedIds.entries()]
      .filter(([, ids]) => ids.size > 1)
      .map(([article, ids]) => `article ${article}: ${[...ids].join(', ')}`),
    repeatedIds: repeated.length,
    repeatArrivals: repeated.reduce((sum, [, seen]) => sum + seen.count - 1, 0),
    /** Articles whose event came although their create was not acknowledged (it committed all the same). */
    unacknowledgedPublished: [...publishedIds.keys()].filter((article) => !ackedIds.has(article)).length,
    delays,
  };
}

export type ArrivalMatch = ReturnType<typeof matchArrivals>;

/** Median, 99th percentile and worst of some milliseconds, in seconds with one decimal: `1.2 / 3.4 / 5.6 s`. */
export function delayFigures(values: readonly number[]): string {
  if (values.length === 0) return '- / - / -';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
  const s = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(1);
  return `${s(at(0.5))} / ${s(at(0.99))} / ${s(sorted.at(-1))} s`;
}

/** One line per phase: the creates acknowledged in it, their events, repeats, delays (median / p99 / worst). */
export function phaseLines(phases: readonly Phase[], acked: readonly AckedCreate[], match: ArrivalMatch): string[] {
  const idsByArticle = new Map<number, string[]>();
  for (const [id, seen] of match.events) {
    if (seen.type === 'article.published' && seen.articleId !== null) {
      idsByArticle.set(seen.articleId, [...(idsByArticle.get(seen.articleId) ?? []), id]);
    }
  }
  return phases.map((phase, index) => {
    const end = phases[index + 1]?.began ?? Number.POSITIVE_INFINITY;
    const written = acked.filter((create) => create.ackedAt >= phase.began && create.ackedAt < end);
    const delays = written.flatMap((create) => {
      const delay = match.delays.get(create.articleId);
      return delay === undefined ? [] : [delay];
    });
    const seen = written
      .flatMap((create) => idsByArticle.get(create.articleId) ?? [])
      .map((id) => match.events.get(id));
    const repeated = seen.filter((event) => (event?.count ?? 0) > 1);
    const extra = repeated.reduce((sum, event) => sum + (event?.count ?? 1) - 1, 0);
    const lastFirst = Math.max(...written.map((create) => create.ackedAt + (match.delays.get(create.articleId) ?? 0)));
    const after = Number.isFinite(end) && written.length > 0 ? `${((lastFirst - end) / 1000).toFixed(1)} s` : '-';
    return (
      `${phase.name}: ${written.length} creates acknowledged, ${delays.length} with their event, ` +
      `${repeated.length} events received more than once (${extra} repeats); ` +
      `delay median / p99 / worst ${delayFigures(delays)}; last first arrival ${after} after the phase ended`
    );
  });
}

function parse(body: string): { type: string; articleId: number | null } | undefined {
  try {
    const value = JSON.parse(body) as { type?: unknown; data?: { id?: unknown } };
    return {
      type: typeof value.type === 'string' ? value.type : '(no type)',
      articleId: typeof value.data?.id === 'number' ? value.data.id : null,
    };
  } catch {
    return undefined;
  }
}
