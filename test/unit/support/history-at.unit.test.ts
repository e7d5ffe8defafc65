import { checkHistory } from '../../support/history/check-history';
import { CUT_AT_POINT, historyUpTo } from '../../support/history/history-at';
import { HistoryBuilder, seen } from '../../support/history/history-builder';

/** The wall-clock time of a builder's clock value (its records' times are performance.now() values). */
const wallClockAt = (at: number) => new Date(performance.timeOrigin + at);

/** The restore drill checks a restored cluster's history cut at the point it was restored to. */
describe('historyUpTo: the history as a cluster restored to a point knows it', () => {
  // Creates at 0-10 (answered), 10-20 (answered), 20-30 (answered); the point at 15.
  const history = new HistoryBuilder()
    .create('w1', 'before', 201, { key: 'k1', id: 1 })
    .create('w1', 'in flight', 201, { key: 'k2', id: 2 })
    .create('w1', 'after', 201, { key: 'k3', id: 3 });
  const cut = historyUpTo(history.operations, wallClockAt(15));

  it('keeps a record answered before the point as it was', () => {
    expect(cut[0]).toBe(history.operations[0]);
  });

  it('makes a record in flight at the point an unknown outcome: no status, no acknowledged id', () => {
    expect(cut[1]).toMatchObject({ startedAt: 10, endedAt: 20, status: null, failure: CUT_AT_POINT });
    expect(cut[1]?.facts).toEqual({ kind: 'create', title: 'in flight', key: 'k2' });
  });

  it('drops a record that started after the point', () => {
    expect(cut).toHaveLength(2);
    expect(cut.map((record) => record.facts?.kind === 'create' && record.facts.title)).toEqual(['before', 'in flight']);
  });

  it('lets the checker accept the restored world: the in-flight article present or not, the later one absent', () => {
    const restored = [{ id: 1, title: 'before' }];
    expect(checkHistory(cut, restored)).toEqual([]);
    expect(checkHistory(cut, [...restored, { id: 2, title: 'in flight' }])).toEqual([]);
    // Uncut, the same restored world would look like two lost acknowledged creates.
    expect(checkHistory(history.operations, restored).map((anomaly) => anomaly.kind)).toEqual([
      'lost-acknowledged-create',
      'lost-acknowledged-create',
    ]);
  });

  it('still finds what the restored world got wrong: an acknowledged create before the point missing', () => {
    expect(checkHistory(cut, [])).toEqual([{ kind: 'lost-acknowledged-create', articleId: 1, title: 'before' }]);
  });

  it('drops what a read in flight showed, so a world undone by the restore is never read as stale', () => {
    // r1 saw article 1 at version 2 (10-20); a read in flight at 25 (20-30) answered version 1.
    const reads = new HistoryBuilder()
      .create('w1', 'a', 201, { id: 1 })
      .read('r1', { present: [seen(1, 2)] })
      .read('r1', { present: [seen(1, 1)] });
    const stored = [{ id: 1, title: 'a' }];
    expect(checkHistory(reads.operations, stored).map((anomaly) => anomaly.kind)).toEqual(['stale-read']);
    const readsCut = historyUpTo(reads.operations, wallClockAt(25));
    expect(readsCut[2]?.facts).toEqual({ kind: 'read' });
    expect(checkHistory(readsCut, stored)).toEqual([]);
  });
});
