import type { Author, Role } from '../../domain';

/** A key as stored and listed: never its token, only the token's first characters. */
export interface StoredKey {
  /** A cuid2. */
  readonly id: string;
  /** The token's first 12 characters (`blog_` and 7 more): enough to tell keys apart, nothing to use. */
  readonly prefix: string;
  readonly role: Role;
  readonly author: Author;
  readonly createdAt: Date;
  /** null: never expires. */
  readonly expiresAt: Date | null;
  /** null: not revoked. */
  readonly revokedAt: Date | null;
  /** When a request last carried it, as last recorded (recordUses): up to a minute behind. */
  readonly lastUsedAt: Date | null;
}

export interface NewKey {
  readonly id: string;
  /** SHA-256 of the token, hex: the only form of the token the storage ever sees. */
  readonly tokenHash: string;
  readonly prefix: string;
  readonly role: Role;
  /** The author by name (authorName: trimmed, checked): found, or created with a free slug. */
  readonly authorName: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

/** What an instance polls to keep its cache of keys true. */
export interface KeyChanges {
  /** How many keys exist, revoked or not: 0 means the open rules hold (without API_TOKEN). */
  readonly keys: number;
  /** The ids of keys revoked at or after the time asked. */
  readonly revoked: readonly string[];
}

/**
 * Where an instance reads the key changes it polls for. The storage of the keys itself, or, on a
 * pooled server, a session of its own: a poll queued behind a busy pool would age the cache past
 * the revocation bound just when a look-up per request costs most.
 */
export interface KeyChangesReader {
  changesSince(since: Date): Promise<KeyChanges>;
}

export interface KeyRepository extends KeyChangesReader {
  /** Stores the key, finding or creating its author in the same transaction. */
  create(key: NewKey): Promise<StoredKey>;
  /** Every key, oldest first. */
  list(): Promise<StoredKey[]>;
  /** Marks the key revoked at `at` (a revoked one keeps its first time); null when no key has this id. */
  revoke(id: string, at: Date): Promise<StoredKey | null>;
  /** The key whose token hashes to `tokenHash`, whatever its state; null when none. */
  findByTokenHash(tokenHash: string): Promise<StoredKey | null>;
  /** Records when each key was last used (a later time wins over a stored one): one write for many requests. */
  recordUses(lastUses: ReadonlyMap<string, Date>): Promise<void>;
}
