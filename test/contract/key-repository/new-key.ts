import type { NewKey } from '../../../src/application';

let made = 0;

/** A key to create: a unique id and hash each call, created at `createdAt`. */
export function aNewKey(overrides: Partial<NewKey> = {}): NewKey {
  made++;
  const id = `key${made.toString().padStart(6, '0')}`;
  return {
    id,
    tokenHash: `${made.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`,
    prefix: `blog_${id.slice(-7)}`,
    role: 'author',
    authorName: 'Ada Lovelace',
    createdAt: new Date('2026-05-01T10:00:00.123Z'),
    expiresAt: null,
    ...overrides,
  };
}
