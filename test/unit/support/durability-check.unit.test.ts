import type { ArticleAnswer, ArticleState } from '../../support/load/article-state';
import { checkDurability, type StoredData } from '../../support/load/durability-check';
import { WriteLedger } from '../../support/load/write-ledger';

/** The reliability tests trust this check to see a lost or half-applied write; so it is tested too. */
describe('checkDurability', () => {
  const state = (token: string): ArticleState => ({
    title: `title ${token}`,
    content: `content ${token}`,
    visible: true,
    tags: [`t-${token}`],
    categories: ['c'],
  });
  const stored = (id: number, written: ArticleState): ArticleAnswer => ({
    id,
    title: written.title,
    content: written.content,
    visible: written.visible,
    tag: written.tags.map((name) => ({ name })),
    category: written.categories.map((name) => ({ name })),
    createdAt: '',
    updatedAt: '',
  });
  const data = (articles: ArticleAnswer[], tags: string[]): StoredData => ({ articles, tagNames: new Set(tags) });

  function ledgerWith(
    ...writes: [kind: 'create' | 'update', token: string, outcome: 'acked' | 'rejected' | 'failed'][]
  ) {
    const ledger = new WriteLedger();
    for (const [kind, token, outcome] of writes) {
      const record = ledger.begin(kind, token, state(token), kind === 'update' ? 1 : null);
      ledger.settle(record, outcome, outcome, kind === 'create' && outcome === 'acked' ? 1 : undefined);
    }
    return ledger;
  }

  it('counts an acknowledged create and its later acknowledged update as found', () => {
    const ledger = ledgerWith(['create', 'a', 'acked'], ['update', 'b', 'acked']);
    const report = checkDurability(ledger, data([stored(1, state('b'))], ['t-a', 't-b']));
    expect(report).toMatchObject({ acknowledged: 2, found: 2, lost: [], halfApplied: [] });
  });

  it('reports an acknowledged create whose article is missing as lost', () => {
    const report = checkDurability(ledgerWith(['create', 'a', 'acked']), data([], []));
    expect(report.lost).toEqual([expect.stringContaining('create a of article 1')]);
    expect(report.found).toBe(0);
  });

  it('reports an acknowledged update that an older state overwrote as lost', () => {
    const ledger = ledgerWith(['create', 'a', 'acked'], ['update', 'b', 'acked']);
    const report = checkDurability(ledger, data([stored(1, state('a'))], ['t-a', 't-b']));
    expect(report.lost).toEqual([expect.stringContaining('update b')]);
  });

  it('reports an article mixing two writes as half-applied', () => {
    const ledger = ledgerWith(['create', 'a', 'acked'], ['update', 'b', 'failed']);
    const mixed = { ...state('b'), tags: ['t-a'] };
    const report = checkDurability(ledger, data([stored(1, mixed)], ['t-a', 't-b']));
    expect(report.halfApplied).toEqual([expect.stringContaining('article 1 matches none')]);
  });

  it('reports an unanswered update whose tag is stored but whose fields are not as half-applied', () => {
    const ledger = ledgerWith(['create', 'a', 'acked'], ['update', 'b', 'failed']);
    const report = checkDurability(ledger, data([stored(1, state('a'))], ['t-a', 't-b']));
    expect(report.halfApplied).toEqual([expect.stringContaining('update b')]);
  });

  it('reports an unanswered create whose tag is stored without its article as half-applied', () => {
    const report = checkDurability(ledgerWith(['create', 'x', 'failed']), data([], ['t-x']));
    expect(report.halfApplied).toEqual([expect.stringContaining('create x')]);
  });

  it('accepts an unanswered write that is stored whole or not at all', () => {
    const whole = checkDurability(ledgerWith(['create', 'x', 'failed']), data([stored(7, state('x'))], ['t-x']));
    const absent = checkDurability(ledgerWith(['create', 'y', 'failed']), data([], []));
    expect(whole).toMatchObject({ unacknowledgedApplied: 1, halfApplied: [], lost: [] });
    expect(absent).toMatchObject({ unacknowledgedAbsent: 1, halfApplied: [], lost: [] });
  });

  it('reports a rejected (4xx) write that is stored anyway', () => {
    const report = checkDurability(ledgerWith(['create', 'r', 'rejected']), data([stored(3, state('r'))], ['t-r']));
    expect(report.rejectedButApplied).toEqual([expect.stringContaining('create r')]);
  });
});
