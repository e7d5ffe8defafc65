import { KnownTerms } from '../../../src/infrastructure/persistence/typeorm/article-repository/known-terms';

const tag = (id: string, name: string) => ({ id, name, description: null });
const named = (name: string) => ({ name, description: null });

describe('KnownTerms', () => {
  it('finds terms by id and by name per kind, once each in the order referenced', () => {
    const known = new KnownTerms();
    const a = tag('a1', 'alpha');
    const b = tag('b1', 'beta');
    known.remember({ tag: [a, b], category: [tag('c1', 'alpha')] });

    expect(known.lookup({ tag: [{ id: 'b1' }, named('alpha'), named('beta')], category: [named('alpha')] })).toEqual({
      tag: [b, a],
      category: [tag('c1', 'alpha')],
    });
  });

  it('answers null when one reference is not known, or is known as the other kind', () => {
    const known = new KnownTerms();
    known.remember({ tag: [tag('a1', 'alpha')], category: [] });

    expect(known.lookup({ tag: [{ id: 'a1' }, { id: 'a2' }], category: [] })).toBeNull();
    expect(known.lookup({ tag: [], category: [{ id: 'a1' }] })).toBeNull();
    expect(known.lookup({ tag: [], category: [named('alpha')] })).toBeNull();
  });

  it('forgets every term at once', () => {
    const known = new KnownTerms();
    known.remember({ tag: [tag('a1', 'alpha')], category: [] });
    known.forgetAll();

    expect(known.lookup({ tag: [{ id: 'a1' }], category: [] })).toBeNull();
  });

  it('keeps at most its number of terms, the least recently used going first', () => {
    const known = new KnownTerms(2);
    known.remember({ tag: [tag('a1', 'alpha'), tag('b1', 'beta')], category: [] });
    known.lookup({ tag: [{ id: 'a1' }, named('alpha')], category: [] });
    known.remember({ tag: [tag('c1', 'gamma')], category: [] });

    expect(known.lookup({ tag: [{ id: 'b1' }], category: [] })).toBeNull();
    expect(known.lookup({ tag: [{ id: 'a1' }, named('gamma')], category: [] })).not.toBeNull();
  });
});
