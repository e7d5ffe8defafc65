import type { KeyChanges, KeyRepository, NewKey, StoredKey } from '../../../application';
import { InMemoryAuthors } from './in-memory-authors';

/** A key as kept: what is listed, and the hash it is found by. */
interface KeptKey extends StoredKey {
  readonly tokenHash: string;
}

/**
 * API keys in process memory. `authors` is the one the InMemoryArticleRepository of the same
 * store holds, so that the articles a key creates find their author. Each method runs to its
 * end without awaiting: a create finds or creates its author and stores the key atomically.
 */
export class InMemoryKeyRepository implements KeyRepository {
  /** In creation order: the order of list(). */
  private readonly keys = new Map<string, KeptKey>();

  constructor(private readonly authors: InMemoryAuthors = new InMemoryAuthors()) {}

  async create(key: NewKey): Promise<StoredKey> {
    for (const kept of this.keys.values()) {
      // The unique index of the SQL storages.
      if (kept.tokenHash === key.tokenHash || kept.id === key.id) throw new Error('a key has this id or token');
    }
    const author = this.authors.findOrCreate(key.authorName);
    const { authorName: _name, ...rest } = key;
    const kept: KeptKey = { ...rest, author, revokedAt: null, lastUsedAt: null };
    this.keys.set(key.id, kept);
    return storedOf(kept);
  }

  async list(): Promise<StoredKey[]> {
    // Oldest first, as the SQL storages order them (creation time, then id).
    return [...this.keys.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(storedOf);
  }

  async revoke(id: string, at: Date): Promise<StoredKey | null> {
    const kept = this.keys.get(id);
    if (!kept) return null;
    const revoked = { ...kept, revokedAt: kept.revokedAt ?? at };
    this.keys.set(id, revoked);
    return storedOf(revoked);
  }

  async findByTokenHash(tokenHash: string): Promise<StoredKey | null> {
    for (const kept of this.keys.values()) if (kept.tokenHash === tokenHash) return storedOf(kept);
    return null;
  }

  async changesSince(since: Date): Promise<KeyChanges> {
    const revoked = [...this.keys.values()].filter(
      (kept) => kept.revokedAt !== null && kept.revokedAt.getTime() >= since.getTime(),
    );
    return { keys: this.keys.size, revoked: revoked.map((kept) => kept.id) };
  }

  async recordUses(lastUses: ReadonlyMap<string, Date>): Promise<void> {
    for (const [id, at] of lastUses) {
      const kept = this.keys.get(id);
      if (!kept || (kept.lastUsedAt !== null && kept.lastUsedAt.getTime() >= at.getTime())) continue;
      this.keys.set(id, { ...kept, lastUsedAt: at });
    }
  }
}

/** A copy without the hash, with dates of its own (a caller may not change the store through it). */
function storedOf({ tokenHash: _hash, ...key }: KeptKey): StoredKey {
  const copy = (at: Date | null) => (at === null ? null : new Date(at));
  return {
    ...key,
    author: { ...key.author },
    createdAt: new Date(key.createdAt),
    expiresAt: copy(key.expiresAt),
    revokedAt: copy(key.revokedAt),
    lastUsedAt: copy(key.lastUsedAt),
  };
}
