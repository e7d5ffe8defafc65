import type { NewestPosition } from '../../application';
import { ARTICLE_RULES } from '../../domain';

/** `<publishedAt in epoch ms>.<id>`, base64url: opaque to clients, checked whole when read back. */
const POSITION = /^(-?[0-9]{1,16})\.([1-9][0-9]{0,9})$/;
/** The range of a JavaScript Date, in ms either side of the epoch. */
const MAX_EPOCH_MS = 8.64e15;

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
  if (Math.abs(ms) > MAX_EPOCH_MS || id > ARTICLE_RULES.maxId) return null;
  return { publishedAt: new Date(ms), id };
}
