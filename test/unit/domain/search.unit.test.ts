import { containsFolded, foldForSearch, searchableTextOf } from '../../../src/domain';

describe('foldForSearch', () => {
  it("is JavaScript's toLowerCase, whatever the locale: İ becomes i + U+0307, final Σ becomes ς", () => {
    expect(foldForSearch('TypeScript')).toBe('typescript');
    expect(foldForSearch('CAFÉ')).toBe('café');
    expect(foldForSearch('İ')).toBe('i\u0307');
    expect(foldForSearch('ΣΟΦΙΑΣ')).toBe('σοφιας'.replace(/σ$/, 'ς'));
    expect(foldForSearch('博客')).toBe('博客');
  });
});

describe('searchableTextOf and containsFolded', () => {
  it('folds each field present, keeps a null title, and leaves absent fields out', () => {
    expect(searchableTextOf({ title: 'A', description: 'B', content: 'C' })).toEqual({
      title: 'a',
      description: 'b',
      content: 'c',
    });
    expect(searchableTextOf({ title: null })).toEqual({ title: null });
    expect(searchableTextOf({ featured: true })).toEqual({});
  });

  it('matches a literal substring of one field, never across two', () => {
    const folded = searchableTextOf({ title: 'ab', description: 'cd', content: '100% a_b' });
    expect(containsFolded(folded, 'ab')).toBe(true);
    expect(containsFolded(folded, '% a_')).toBe(true);
    expect(containsFolded(folded, 'bc')).toBe(false);
    expect(containsFolded(folded, '%a')).toBe(false);
    expect(containsFolded(searchableTextOf({ title: null, description: 'x', content: 'y' }), 'null')).toBe(false);
  });
});
