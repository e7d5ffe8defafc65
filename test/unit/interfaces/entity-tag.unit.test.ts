import { entityTagOf, expectedVersionsOf, ifNoneMatchNames } from '../../../src/interfaces/http/entity-tag';

describe('entityTagOf', () => {
  const moment = new Date('2026-05-01T00:00:00.000Z');

  it('is a strong tag of the id and the version', () => {
    expect(entityTagOf({ id: 12, version: 3, publishedAt: moment }, moment)).toBe('"12-3"');
    expect(entityTagOf({ id: 12, version: 3, publishedAt: null }, moment)).toBe('"12-3"');
  });

  it('marks a scheduled article, so that its tag changes when its time arrives', () => {
    const scheduled = { id: 12, version: 3, publishedAt: new Date(moment.getTime() + 1) };
    expect(entityTagOf(scheduled, moment)).toBe('"12-3s"');
    expect(entityTagOf(scheduled, new Date(moment.getTime() + 1))).toBe('"12-3"');
    // If-Match names the stored version either way: the arrival of the time wrote nothing.
    expect(expectedVersionsOf('"12-3s"', 12)).toEqual({ versions: [3] });
  });
});

describe('expectedVersionsOf (If-Match)', () => {
  it('asks for no check when the header is absent, and for an article that exists with *', () => {
    expect(expectedVersionsOf(undefined, 1)).toBeUndefined();
    expect(expectedVersionsOf('*', 1)).toEqual({ versions: [], anyVersion: true });
    expect(expectedVersionsOf(' * ', 1)).toEqual({ versions: [], anyVersion: true });
  });

  it('reads the versions of this article from one tag or a list', () => {
    expect(expectedVersionsOf('"7-2"', 7)).toEqual({ versions: [2] });
    expect(expectedVersionsOf('"7-2", "7-5","7-9"', 7)).toEqual({ versions: [2, 5, 9] });
    expect(
      expectedVersionsOf(entityTagOf({ id: 2147483647, version: 1, publishedAt: null }, new Date()), 2147483647),
    ).toEqual({ versions: [1] });
  });

  it('skips weak tags and tags of other articles, keeping the rest of the list', () => {
    expect(expectedVersionsOf('W/"7-2"', 7)).toEqual({ versions: [] });
    expect(expectedVersionsOf('"8-2"', 7)).toEqual({ versions: [] });
    expect(expectedVersionsOf('W/"7-2", "8-3", "7-4"', 7)).toEqual({ versions: [4] });
  });

  it.each([
    ['an empty header', ''],
    ['an unquoted tag', '7-2'],
    ['a missing closing quote', '"7-2'],
    ['text after a tag', '"7-2" x'],
    ['a list with garbage in it', '"7-2", garbage'],
    ['* inside a list', '*, "7-2"'],
    ['an empty list element', '"7-2", , "7-3"'],
    ['a lower-case weak prefix', 'w/"7-2"'],
  ])('names no version at all for %s', (_case, header) => {
    expect(expectedVersionsOf(header, 7)).toEqual({ versions: [] });
  });

  it.each([
    ['someone else’s opaque tag', '"abc"'],
    ['a zero version', '"7-0"'],
    ['a leading zero', '"07-2"'],
    ['a version beyond safe integers', '"7-99999999999999999999"'],
  ])('names no version for %s', (_case, header) => {
    expect(expectedVersionsOf(header, 7)).toEqual({ versions: [] });
  });
});

describe('ifNoneMatchNames (If-None-Match, RFC 9110 §13.1.2)', () => {
  const current = '"7-2"';

  it('names the current tag by weak comparison, alone or in a list', () => {
    expect(ifNoneMatchNames('"7-2"', current)).toBe(true);
    expect(ifNoneMatchNames('W/"7-2"', current)).toBe(true);
    expect(ifNoneMatchNames('"7-1", W/"7-2" ,"x"', current)).toBe(true);
    expect(ifNoneMatchNames('"7-1","7-2"', current)).toBe(true);
  });

  it('takes * as naming any representation that exists, and none that does not', () => {
    expect(ifNoneMatchNames('*', current)).toBe(true);
    expect(ifNoneMatchNames(' * ', current)).toBe(true);
    expect(ifNoneMatchNames('*', undefined)).toBe(false);
  });

  it.each([
    ['an absent header', undefined],
    ['another tag', '"7-1"'],
    ['the tag of another article', '"8-2"'],
    ['an empty header', ''],
    ['an unquoted tag', '7-2'],
    ['a list with garbage in it', '"7-2", garbage'],
    ['* inside a list', '*, "7-2"'],
    ['a lower-case weak prefix', 'w/"7-2"'],
  ])('names nothing with %s', (_case, header) => {
    expect(ifNoneMatchNames(header, current)).toBe(false);
  });
});
