import { decodeNewestCursor, encodeNewestCursor } from '../../../src/interfaces/http/newest-cursor';

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('the newest-first cursor', () => {
  it('gives back the position it was made from, at the edges of the years a publishedAt can be', () => {
    for (const at of [
      '2026-11-27T05:00:00.123Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
    ]) {
      const position = { publishedAt: new Date(at), id: 2_147_483_647 };
      expect(decodeNewestCursor(encodeNewestCursor(position))).toEqual(position);
    }
  });

  it('names no position for what this service never gives: other text, out of range, altered', () => {
    for (const cursor of [
      '',
      'not a cursor',
      cursorOf('123'),
      cursorOf('123.0'),
      cursorOf('123.2147483648'),
      cursorOf(`${Date.parse('9999-12-31T23:59:59.999Z') + 1}.1`),
      cursorOf(`${Date.parse('0001-01-01T00:00:00.000Z') - 1}.1`),
      cursorOf('8640000000000000.1'),
      `${encodeNewestCursor({ publishedAt: new Date(0), id: 5 })}!`,
    ]) {
      expect({ cursor, position: decodeNewestCursor(cursor) }).toEqual({ cursor, position: null });
    }
  });
});
