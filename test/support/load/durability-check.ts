import { jsonOf, RawHttpClient } from '../raw-http';
import { type ArticleAnswer, type ArticleState, sameState, stateOf } from './article-state';
import type { WriteLedger, WriteRecord } from './write-ledger';

/** What the storage holds, read back through the API once the load is over. */
export interface StoredData {
  articles: ArticleAnswer[];
  tagNames: Set<string>;
}

export async function readStoredData(baseUrl: string): Promise<StoredData> {
  const http = new RawHttpClient(baseUrl, { maxSockets: 1, deadlineMs: 60_000 });
  try {
    const articles = jsonOf(await http.get('/article')) as { data: ArticleAnswer[] } | undefined;
    const tags = jsonOf(await http.get('/tag')) as { data: { name: string }[] } | undefined;
    if (!articles?.data || !tags?.data) throw new Error('could not read the stored articles and tags back');
    return { articles: articles.data, tagNames: new Set(tags.data.map((tag) => tag.name)) };
  } finally {
    http.close();
  }
}

export interface DurabilityReport {
  /** Writes answered 2xx. */
  acknowledged: number;
  /** Acknowledged writes whose effect is stored (or was overwritten by a later write of the same article). */
  found: number;
  /** Acknowledged writes that are gone. */
  lost: string[];
  /** Writes stored in part: an article unlike any write sent, or a write's tag without its article. */
  halfApplied: string[];
  /** Writes answered 4xx that are stored anyway. */
  rejectedButApplied: string[];
  /** Writes without a 2xx answer (5xx or no answer) that turned out fully stored, or fully absent. */
  unacknowledgedApplied: number;
  unacknowledgedAbsent: number;
}

/**
 * Compares the ledger with what is stored. Each write names a tag of its own (`t-<token>`),
 * created in the write's transaction, so a tag without its write's state means half a write.
 */
export function checkDurability(ledger: WriteLedger, stored: StoredData): DurabilityReport {
  const report: DurabilityReport = {
    acknowledged: ledger.count('acked'),
    found: 0,
    lost: [],
    halfApplied: [],
    rejectedButApplied: [],
    unacknowledgedApplied: 0,
    unacknowledgedAbsent: 0,
  };
  const byId = new Map(stored.articles.map((article) => [article.id, article]));
  for (const [id, chain] of ledger.chains()) checkArticle(report, id, chain, byId.get(id), stored.tagNames);

  const byContent = new Map(stored.articles.map((article) => [article.content, article]));
  for (const write of ledger.unacknowledgedCreates()) {
    const article = byContent.get(write.intended.content);
    const tagStored = stored.tagNames.has(`t-${write.token}`);
    if (article && !sameState(stateOf(article), write.intended)) {
      report.halfApplied.push(`create ${write.token} (${write.detail}) stored differently as article ${article.id}`);
    } else if (!article && tagStored) {
      report.halfApplied.push(`create ${write.token} (${write.detail}): its tag is stored, its article is not`);
    } else if (article && write.outcome === 'rejected') {
      report.rejectedButApplied.push(`create ${write.token} (${write.detail})`);
    } else if (article) {
      report.unacknowledgedApplied++;
    } else {
      report.unacknowledgedAbsent++;
    }
  }
  return report;
}

/** One acknowledged article: its final state must be its last acknowledged write, or a later one. */
function checkArticle(
  report: DurabilityReport,
  id: number,
  chain: readonly WriteRecord[],
  article: ArticleAnswer | undefined,
  tagNames: Set<string>,
): void {
  if (!article) {
    const acked = chain.filter((write) => write.outcome === 'acked');
    report.lost.push(...acked.map((write) => `${write.kind} ${write.token} of article ${id}: article missing`));
    return;
  }
  const state: ArticleState = stateOf(article);
  const current = chain.findLastIndex((write) => sameState(write.intended, state));
  if (current === -1) {
    report.halfApplied.push(`article ${id} matches none of its ${chain.length} writes: ${JSON.stringify(state)}`);
    return;
  }
  for (const [index, write] of chain.entries()) {
    const tagStored = tagNames.has(`t-${write.token}`);
    if (write.outcome === 'acked') {
      const problem = index > current ? 'overwritten by an older write' : tagStored ? null : 'its own tag is missing';
      if (problem) report.lost.push(`${write.kind} ${write.token} of article ${id}: ${problem}`);
      else report.found++;
    } else if (index > current && tagStored) {
      // A later write committed its tag, yet the article does not show that write.
      report.halfApplied.push(`${write.kind} ${write.token} (${write.detail}): tag stored, article not updated`);
    } else if (index === current && write.outcome === 'rejected') {
      report.rejectedButApplied.push(`${write.kind} ${write.token} (${write.detail})`);
    } else if (index === current) {
      report.unacknowledgedApplied++;
    } else if (index > current) {
      report.unacknowledgedAbsent++;
    }
  }
}
