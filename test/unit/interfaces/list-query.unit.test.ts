import { parseInput } from '../../../src/interfaces/http/validation/article-schemas';
import { listArticlesQuery } from '../../../src/interfaces/http/validation/list-query';
import { validationErrorOf } from '../../support/errors';

const parse = (query: Record<string, unknown>) => parseInput(listArticlesQuery, query);
const errorOf = (query: Record<string, unknown>) => validationErrorOf(() => parse(query)).message;

describe('listArticlesQuery', () => {
  it('reads nothing from an empty query', () => {
    expect(parse({})).toEqual({});
  });

  it('turns limit and after into integers and trims names; other parameters are dropped', () => {
    expect(
      parse({ limit: '100', after: '2147483647', tag: ' TS ', category: '\tdev\n', page: '3', x: ['1', '2'] }),
    ).toEqual({
      limit: 100,
      after: 2147483647,
      tag: 'TS',
      category: 'dev',
    });
    expect(parse({ limit: '1' })).toEqual({ limit: 1 });
    expect(parse({ tag: '😀'.repeat(64) })).toEqual({ tag: '😀'.repeat(64) });
  });

  it.each(['0', '101', '1000', '-1', '1.5', '1e2', '01', '', ' 5', 'ten'])('rejects limit=%j', (limit) => {
    expect(errorOf({ limit })).toBe('limit: must be an integer from 1 to 100');
  });

  it.each(['0', '2147483648', '01', 'x', ''])('rejects after=%j as the path id rule does', (after) => {
    expect(errorOf({ after })).toBe(`after: "${after}" is not an article id (a positive integer up to 2147483647)`);
  });

  it.each([
    ['tag', '', 'tag: must be 1 to 64 characters after trimming'],
    ['tag', '  ', 'tag: must be 1 to 64 characters after trimming'],
    ['category', 'x'.repeat(65), 'category: must be 1 to 64 characters after trimming'],
    ['category', '😀'.repeat(65), 'category: must be 1 to 64 characters after trimming'],
    ['tag', 'a\u0000b', 'tag: must not contain the NUL character (U+0000)'],
    ['tag', '\ud800', 'tag: must not contain unpaired UTF-16 surrogates'],
  ])('rejects %s=%j', (name, value, message) => {
    expect(errorOf({ [name]: value })).toBe(message);
  });

  it.each(['limit', 'after', 'tag', 'category'])('rejects %s given twice, naming it', (name) => {
    expect(errorOf({ [name]: ['1', '1'] })).toBe(`${name}: must be given at most once`);
  });
});

describe('listArticlesQuery: q', () => {
  it('trims q and keeps every character as given', () => {
    expect(parse({ q: '  Hello World  ' })).toEqual({ q: 'Hello World' });
    expect(parse({ q: '%_\\*"\'' })).toEqual({ q: '%_\\*"\'' });
    expect(parse({ q: '😀'.repeat(100) })).toEqual({ q: '😀'.repeat(100) });
  });

  it.each([
    ['', 'q: must be 1 to 100 characters after trimming'],
    [' \t\n', 'q: must be 1 to 100 characters after trimming'],
    ['x'.repeat(101), 'q: must be 1 to 100 characters after trimming'],
    ['😀'.repeat(101), 'q: must be 1 to 100 characters after trimming'],
    ['a\u0000b', 'q: must not contain the NUL character (U+0000)'],
    ['\ud800', 'q: must not contain unpaired UTF-16 surrogates'],
    [['a', 'b'], 'q: must be given at most once'],
  ])('rejects q=%j', (q, message) => {
    expect(errorOf({ q })).toBe(message);
  });
});
