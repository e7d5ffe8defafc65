import { articleReadFacts, createFacts, listReadFacts } from '../../support/history/answer-facts';
import type { Exchange } from '../../support/raw-http';

const answered = (status: number, body: unknown, etag?: string): [Exchange, unknown] => [
  { kind: 'answered', status, headers: etag ? { etag } : {}, text: JSON.stringify(body), reusedSocket: false },
  body,
];
const noAnswer: Exchange = { kind: 'failed', code: 'ECONNRESET', reusedSocket: false };
const listed = (...ids: number[]) => ({ data: ids.map((id) => ({ id, visible: true })) });

/** What the loads record of each answer: the facts the history checker reads. */
describe('answer facts', () => {
  it('records a create’s key, and its id only when answered 2xx', () => {
    expect(createFacts('t', 'k', ...answered(201, { data: { id: 4 } }))).toEqual({
      kind: 'create',
      title: 't',
      key: 'k',
      createdId: 4,
    });
    expect(createFacts('t', undefined, ...answered(503, { data: null }))).toEqual({ kind: 'create', title: 't' });
    expect(createFacts('t', undefined, noAnswer, undefined)).toEqual({ kind: 'create', title: 't' });
  });

  it('reads an article’s version from its entity tag, and null data as missing', () => {
    const article = { data: { id: 7, visible: false } };
    expect(articleReadFacts(7, ...answered(200, article, '"7-3"'))).toEqual({
      kind: 'read',
      observed: { present: [{ id: 7, visible: false, version: 3 }], missing: [] },
    });
    expect(articleReadFacts(7, ...answered(200, { data: null }))).toEqual({
      kind: 'read',
      observed: { present: [], missing: [7] },
    });
    expect(articleReadFacts(7, ...answered(503, { data: null }))).toEqual({ kind: 'read' });
  });

  it('says a full page covers the ids up to its last one, a short page or the whole list every id after', () => {
    expect(listReadFacts(...answered(200, listed(1, 2)), { limit: 2 }).observed?.listed?.covers).toEqual({
      after: 0,
      upTo: 2,
    });
    expect(listReadFacts(...answered(200, listed(5)), { after: 4, limit: 2 }).observed?.listed?.covers).toEqual({
      after: 4,
      upTo: Number.POSITIVE_INFINITY,
    });
    expect(listReadFacts(...answered(200, listed(1, 2))).observed?.listed?.covers).toEqual({
      after: 0,
      upTo: Number.POSITIVE_INFINITY,
    });
    expect(listReadFacts(...answered(200, listed(3)), { filtered: true }).observed).toEqual({
      present: [],
      missing: [],
      listed: { ids: [3] },
    });
    expect(listReadFacts(noAnswer, undefined)).toEqual({ kind: 'read' });
  });
});
