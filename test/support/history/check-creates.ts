import type { RequestRecord } from '../load/request-log';
import type { Anomaly } from './anomaly';
import { type CreateFacts, outcomeOf } from './operation-facts';

/** An article as the final read of the primary has it: every article, whatever its visibility. */
export interface StoredArticle {
  id: number;
  title: string | null;
}

/**
 * One article a client wanted: every attempt with one idempotency key, or a single create
 * without one. It may have made at most one article.
 */
interface Intention {
  key?: string;
  /** Some attempt was answered 2xx, or got a 5xx or no answer: it may have made its article. */
  possible: boolean;
  ackedIds: Set<number>;
  /** Articles of the final read attributed to it by title (its acknowledged ids are attributed by id). */
  byTitle: number[];
}

/**
 * Creates against the final read of the primary: an acknowledged article must be there unless a
 * delete of it was sent (lost-acknowledged-create); every other article must be one a create
 * without a definite answer could have made, one per create (phantom-article), and one key makes
 * one article (duplicate-for-key). Unacknowledged creates are recognised by the title they sent.
 */
export function checkCreates(history: readonly RequestRecord[], stored: readonly StoredArticle[]): Anomaly[] {
  const { intentions, byTitle } = intentionsOf(history);
  const mayBeDeleted = new Set(
    history.flatMap((r) => (r.facts?.kind === 'delete' && outcomeOf(r) !== 'failed' ? [r.facts.articleId] : [])),
  );
  const storedIds = new Set(stored.map((article) => article.id));
  const acknowledged = new Map<number, { intention: Intention; title: string | null }>();
  for (const record of history) {
    const facts = record.facts;
    if (facts?.kind !== 'create' || facts.createdId === undefined || outcomeOf(record) !== 'ok') continue;
    acknowledged.set(facts.createdId, { intention: intentionFor(intentions, facts, record), title: facts.title });
  }

  const anomalies: Anomaly[] = [];
  for (const [articleId, { title }] of acknowledged) {
    if (!storedIds.has(articleId) && !mayBeDeleted.has(articleId)) {
      anomalies.push({ kind: 'lost-acknowledged-create', articleId, title });
    }
  }
  for (const article of [...stored].sort((a, b) => a.id - b.id)) {
    if (acknowledged.has(article.id)) continue;
    const candidates = (article.title === null ? [] : (byTitle.get(article.title) ?? [])).filter((i) => i.possible);
    // A create that has made nothing yet; else a key that already has its article (a duplicate).
    const maker =
      candidates.find((i) => i.ackedIds.size === 0 && i.byTitle.length === 0) ??
      candidates.find((i) => i.key !== undefined);
    if (maker) maker.byTitle.push(article.id);
    else anomalies.push({ kind: 'phantom-article', articleId: article.id, title: article.title });
  }
  for (const intention of new Set(intentions.values())) {
    const articleIds = [...new Set([...intention.ackedIds, ...intention.byTitle])].sort((a, b) => a - b);
    if (intention.key !== undefined && articleIds.length > 1) {
      anomalies.push({ kind: 'duplicate-for-key', key: intention.key, articleIds });
    }
  }
  return anomalies;
}

function intentionsOf(history: readonly RequestRecord[]) {
  const intentions = new Map<string | RequestRecord, Intention>();
  const byTitle = new Map<string, Intention[]>();
  for (const record of history) {
    const facts = record.facts;
    if (facts?.kind !== 'create') continue;
    const intention = intentionFor(intentions, facts, record);
    if (outcomeOf(record) !== 'failed') intention.possible = true;
    if (outcomeOf(record) === 'ok' && facts.createdId !== undefined) intention.ackedIds.add(facts.createdId);
    // A create without a title is known by its acknowledged id only.
    const sameTitle = facts.title === null ? [] : (byTitle.get(facts.title) ?? []);
    if (facts.title !== null && !sameTitle.includes(intention)) byTitle.set(facts.title, [...sameTitle, intention]);
  }
  return { intentions, byTitle };
}

/** A keyed create's intention is its key's; a create without a key is an intention of its own. */
function intentionFor(
  intentions: Map<string | RequestRecord, Intention>,
  facts: CreateFacts,
  record: RequestRecord,
): Intention {
  const id = facts.key ?? record;
  let intention = intentions.get(id);
  if (!intention) {
    intention = {
      ...(facts.key === undefined ? {} : { key: facts.key }),
      possible: false,
      ackedIds: new Set(),
      byTitle: [],
    };
    intentions.set(id, intention);
  }
  return intention;
}
