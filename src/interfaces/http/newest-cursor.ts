import type { NewestPosition } from '../../application';
import { ARTICLE_RULES } from '../../domain';

/** `<publishedAt in epoch ms>.<id>`, base64url: opaque to clients, checked whole when read back. */
const POSITION = /^(-?[0-9]{1,16})\.([1-9][0-9]{0,9})$/;
/** The instants a publishedAt can be (years 1 to 9999 in UTC): a position outside never came from this service. */
const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** The `cursor` of the page after `position` in newest order. */
export function encodeNewestCursor(position: NewestPosition): string {
  return Buffer.from(`${position.publishedAt.getTime()}.${position.id}`).toString('base64url');
}

/** The position a cursor names; null when it names none (not this service's cursor, or altered). */
export function decodeNewestCursor(cursor: string): NewestPosition | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return null;
  const ms = Number(match[1]);
  const id = Number(match[2]);
  if (ms < FIRST_MS || ms > LAST_MS || id > ARTICLE_RULES.maxId) return null;
  return { publishedAt: new Date(ms), id };
}
