import { checkHistory } from '../../support/history/check-history';
import { HistoryBuilder, seen } from '../../support/history/history-builder';
import { historyFigures } from '../../support/history/history-figures';

const article = (id: number, title: string | null) => ({ id, title });

/** The topology tests trust this checker to see each anomaly, and to see none in a clean history. */
describe('checkHistory: creates against the final read of the primary', () => {
  it('finds nothing when every acknowledged create is stored once', () => {
    const history = new HistoryBuilder().create('w1', 'a', 201, { key: 'k1', id: 1 }).create('w2', 'b', 201, { id: 2 });
    expect(checkHistory(history.operations, [article(1, 'a'), article(2, 'b')])).toEqual([]);
  });

  it('reports an acknowledged create missing from the final read', () => {
    const history = new HistoryBuilder().create('w1', 'a', 201, { key: 'k1', id: 1 }).create('w1', 'b', 201, { id: 2 });
    expect(checkHistory(history.operations, [article(2, 'b')])).toEqual([
      { kind: 'lost-acknowledged-create', articleId: 1, title: 'a' },
    ]);
  });

  it('does not count an acknowledged article as lost once a delete of it was sent, answered or not', () => {
    const answered = new HistoryBuilder().create('w1', 'a', 201, { id: 1 }).delete('w1', 1, 200);
    const unanswered = new HistoryBuilder().create('w1', 'a', 201, { id: 1 }).delete('w1', 1, null);
    expect(checkHistory(answered.operations, [])).toEqual([]);
    expect(checkHistory(unanswered.operations, [])).toEqual([]);
  });

  it('still reports the loss when the only delete was refused (4xx)', () => {
    const history = new HistoryBuilder().create('w1', 'a', 201, { id: 1 }).delete('w1', 1, 404);
    expect(checkHistory(history.operations, [])).toEqual([
      { kind: 'lost-acknowledged-create', articleId: 1, title: 'a' },
    ]);
  });

  it('accepts an article later updated to another title: acknowledged articles are known by id', () => {
    const history = new HistoryBuilder().create('w1', 'a', 201, { id: 1 }).update('w1', 1, 200, true);
    expect(checkHistory(history.operations, [article(1, 'u b')])).toEqual([]);
  });

  it.each([
    ['no answer', null],
    ['a 503', 503],
    ['a 500', 500],
  ])('accepts a create with %s whether its article is stored or not', (_, status) => {
    const history = new HistoryBuilder().create('w1', 'a', status);
    expect(checkHistory(history.operations, [article(7, 'a')])).toEqual([]);
    expect(checkHistory(history.operations, [])).toEqual([]);
  });

  it('accepts one article for a key whose attempts got a 503, a reset and a 409, and no 2xx', () => {
    const history = new HistoryBuilder()
      .create('w1', 'a', 503, { key: 'k1' })
      .create('w1', 'a', null, { key: 'k1' })
      .create('w1', 'a', 409, { key: 'k1' });
    expect(checkHistory(history.operations, [article(4, 'a')])).toEqual([]);
  });

  it('accepts retries of one key ending in a 2xx whose id is stored', () => {
    const history = new HistoryBuilder()
      .create('w1', 'a', null, { key: 'k1' })
      .create('w1', 'a', 503, { key: 'k1' })
      .create('w1', 'a', 201, { key: 'k1', id: 5 })
      .create('w1', 'a', 200, { key: 'k1', id: 5 });
    expect(checkHistory(history.operations, [article(5, 'a')])).toEqual([]);
  });

  it('reports an article that no create sent', () => {
    const history = new HistoryBuilder().create('w1', 'a', 201, { id: 1 });
    expect(checkHistory(history.operations, [article(1, 'a'), article(2, 'zzz'), article(3, null)])).toEqual([
      { kind: 'phantom-article', articleId: 2, title: 'zzz' },
      { kind: 'phantom-article', articleId: 3, title: null },
    ]);
  });

  it('reports an article whose only create was refused (4xx) as a phantom', () => {
    const history = new HistoryBuilder().create('w1', 'a', 400).create('w1', 'b', 409, { key: 'k2' });
    expect(checkHistory(history.operations, [article(1, 'a'), article(2, 'b')])).toEqual([
      { kind: 'phantom-article', articleId: 1, title: 'a' },
      { kind: 'phantom-article', articleId: 2, title: 'b' },
    ]);
  });

  it('reports a second article for one create without a key as a phantom', () => {
    const unanswered = new HistoryBuilder().create('w1', 'a', null);
    expect(checkHistory(unanswered.operations, [article(1, 'a'), article(2, 'a')])).toEqual([
      { kind: 'phantom-article', articleId: 2, title: 'a' },
    ]);
    const acknowledged = new HistoryBuilder().create('w1', 'a', 201, { id: 1 });
    expect(checkHistory(acknowledged.operations, [article(1, 'a'), article(2, 'a')])).toEqual([
      { kind: 'phantom-article', articleId: 2, title: 'a' },
    ]);
  });

  it('accepts two articles with one title when two creates without a key sent it', () => {
    const history = new HistoryBuilder().create('w1', 'a', null).create('w2', 'a', 503);
    expect(checkHistory(history.operations, [article(1, 'a'), article(2, 'a')])).toEqual([]);
  });

  it('reports two articles for one key: the acknowledged one and another with its title', () => {
    const history = new HistoryBuilder()
      .create('w1', 'a', null, { key: 'k1' })
      .create('w1', 'a', 201, { key: 'k1', id: 9 });
    expect(checkHistory(history.operations, [article(5, 'a'), article(9, 'a')])).toEqual([
      { kind: 'duplicate-for-key', key: 'k1', articleIds: [5, 9] },
    ]);
  });

  it('reports two articles for one key that was never acknowledged', () => {
    const history = new HistoryBuilder().create('w1', 'a', null, { key: 'k1' }).create('w1', 'a', 503, { key: 'k1' });
    expect(checkHistory(history.operations, [article(5, 'a'), article(6, 'a')])).toEqual([
      { kind: 'duplicate-for-key', key: 'k1', articleIds: [5, 6] },
    ]);
  });

  it('reports one key acknowledged with two ids, even if one of them is gone', () => {
    const history = new HistoryBuilder()
      .create('w1', 'a', 201, { key: 'k1', id: 5 })
      .create('w1', 'a', 200, { key: 'k1', id: 6 });
    expect(checkHistory(history.operations, [article(6, 'a')])).toEqual([
      { kind: 'lost-acknowledged-create', articleId: 5, title: 'a' },
      { kind: 'duplicate-for-key', key: 'k1', articleIds: [5, 6] },
    ]);
  });
});

describe('checkHistory: each client’s reads never go back in time', () => {
  it('finds nothing in reads that move forward: missing, then present, then newer versions', () => {
    const history = new HistoryBuilder()
      .read('r1', { missing: [1] })
      .read('r1', { present: [seen(1, 1)] })
      .list('r1', [1])
      .read('r1', { present: [seen(1, 3)] })
      .failedRead('r1')
      .read('r1', { present: [seen(1, 3)] });
    expect(checkHistory(history.operations, [])).toEqual([]);
  });

  it('reports a client that read version 3 and then version 2', () => {
    const history = new HistoryBuilder().read('r1', { present: [seen(1, 3)] }).read('r1', { present: [seen(1, 2)] });
    expect(checkHistory(history.operations, [])).toEqual([
      { kind: 'stale-read', client: 'r1', articleId: 1, earlier: 'version 3 (read #1)', later: 'version 2 (read #2)' },
    ]);
  });

  it('does not compare the reads of two clients: each may read another replica', () => {
    const history = new HistoryBuilder().read('r1', { present: [seen(1, 3)] }).read('r2', { present: [seen(1, 2)] });
    expect(checkHistory(history.operations, [])).toEqual([]);
  });

  it('reports an article read, then read as missing', () => {
    const history = new HistoryBuilder().read('r1', { present: [seen(1, 1)] }).read('r1', { missing: [1] });
    expect(checkHistory(history.operations, [])).toEqual([
      { kind: 'stale-read', client: 'r1', articleId: 1, earlier: 'present (read #1)', later: 'missing (read #2)' },
    ]);
  });

  it('accepts an article gone once a delete of it was sent before the read ended, even unanswered', () => {
    const history = new HistoryBuilder().read('r1', { present: [seen(1, 1)] });
    history.delete('w1', 1, null, [history.now + 2, history.now + 50]).read('r1', { missing: [1] });
    expect(checkHistory(history.operations, [])).toEqual([]);
  });

  it('does not excuse a read by a delete sent after it ended, or one refused', () => {
    const later = new HistoryBuilder().read('r1', { present: [seen(1, 1)] });
    later.delete('w1', 1, 200, [later.now + 20, later.now + 30]).read('r1', { missing: [1] });
    const refused = new HistoryBuilder().read('r1', { present: [seen(1, 1)] });
    refused.delete('w1', 1, 404, [refused.now + 2, refused.now + 5]).read('r1', { missing: [1] });
    for (const history of [later, refused]) {
      expect(checkHistory(history.operations, [])).toEqual([expect.objectContaining({ kind: 'stale-read' })]);
    }
  });

  it('reports an article listed (or read visible), then left out of a list that covers its id', () => {
    const whole = new HistoryBuilder().list('r1', [1, 2]).list('r1', [1]);
    expect(checkHistory(whole.operations, [])).toEqual([
      { kind: 'stale-read', client: 'r1', articleId: 2, earlier: 'visible (list #1)', later: 'not listed (list #2)' },
    ]);
    const page = new HistoryBuilder().read('r1', { present: [seen(5, 2)] }).list('r1', [4, 6], { after: 3, upTo: 6 });
    expect(checkHistory(page.operations, [])).toEqual([expect.objectContaining({ kind: 'stale-read', articleId: 5 })]);
  });

  it('accepts an article left out of a page that does not cover its id, of a search, or never seen visible', () => {
    const history = new HistoryBuilder()
      .read('r1', { present: [seen(5), seen(9, 1, false)] })
      .list('r1', [1, 2], { after: 0, upTo: 2 })
      .list('r1', [6], { after: 5, upTo: Number.POSITIVE_INFINITY })
      .list('r1', [1], null);
    expect(checkHistory(history.operations, [])).toEqual([]);
  });

  it('accepts an article left out of a list once an update that may hide it was sent', () => {
    for (const visible of [false, undefined]) {
      const history = new HistoryBuilder().list('r1', [1, 2]);
      history.update('w1', 2, null, visible, [history.now + 1, history.now + 3]);
      history.list('r1', [1]);
      expect(checkHistory(history.operations, [])).toEqual([]);
    }
  });

  it('does not excuse a list by an update that keeps the article visible', () => {
    const history = new HistoryBuilder().list('r1', [1, 2]);
    history.update('w1', 2, 200, true, [history.now + 1, history.now + 3]);
    history.list('r1', [1]);
    expect(checkHistory(history.operations, [])).toEqual([
      expect.objectContaining({ kind: 'stale-read', articleId: 2 }),
    ]);
  });

  it('with staleWithinMs, accepts a read that goes back that soon after the one it contradicts, and reports one later', () => {
    const options = { staleWithinMs: 1_000 };
    const soon = new HistoryBuilder()
      .read('r1', { present: [seen(1, 3)] })
      .pause(970)
      .list('r1', []);
    expect(checkHistory(soon.operations, [], options)).toEqual([]);
    soon.read('r1', { present: [seen(1, 2)] }).read('r1', { missing: [1] });
    expect(checkHistory(soon.operations, [], options)).toEqual([]);
    const late = new HistoryBuilder().read('r1', { present: [seen(1, 3)] }).pause(1_000);
    late.read('r1', { present: [seen(1, 2)] });
    expect(checkHistory(late.operations, [], options)).toEqual([
      { kind: 'stale-read', client: 'r1', articleId: 1, earlier: 'version 3 (read #1)', later: 'version 2 (read #2)' },
    ]);
    const listed = new HistoryBuilder().list('r1', [1, 2]).pause(500).list('r1', [1]).pause(500).list('r1', [1]);
    expect(checkHistory(listed.operations, [], options)).toEqual([
      { kind: 'stale-read', client: 'r1', articleId: 2, earlier: 'visible (list #1)', later: 'not listed (list #3)' },
    ]);
  });

  it('reports one client and article once, however many later reads repeat the older state', () => {
    const history = new HistoryBuilder()
      .read('r1', { present: [seen(1, 3)] })
      .read('r1', { present: [seen(1, 2)] })
      .read('r1', { present: [seen(1, 2)] });
    expect(checkHistory(history.operations, [])).toHaveLength(1);
  });
});

describe('historyFigures', () => {
  it('counts the clients, creates, other writes and the reads that showed something', () => {
    const history = new HistoryBuilder()
      .create('w1', 'a', 201, { id: 1 })
      .update('w1', 1, null)
      .read('r1', { present: [seen(1)] })
      .failedRead('r2');
    expect(historyFigures(history.operations)).toEqual({ clients: 3, creates: 1, writes: 1, reads: 1 });
  });
});
