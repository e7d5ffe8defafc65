import { type Actor, ANONYMOUS_ACTOR, OPEN_ACTOR, UnauthenticatedError } from '../../domain';
import type { Clock } from '../ports/clock';
import type { KeyChangesReader, KeyRepository, StoredKey } from '../ports/key-repository';
import type { TokenSecrets } from '../ports/token-secrets';

export interface AuthenticationSettings {
  /** API_TOKEN, when set: an admin without an author. */
  readonly apiToken: string | null;
  /** A revoked key is refused by every instance within this: the cache trusts a view of the keys no older. */
  readonly freshForMs: number;
}

/** API_TOKEN's actor, and the operator's (`npm run keys`, who holds the database itself). */
export const ADMIN_WITHOUT_AUTHOR: Actor = { kind: 'key', keyId: null, role: 'admin', author: null };

const NOT_A_KEY = 'Authorization: the bearer token is not a valid key (unknown, expired or revoked)';

/** A key kept in memory, with the actor it names: a cached request allocates none. */
interface KnownKey {
  readonly key: StoredKey;
  readonly actor: Actor;
}

/** Slack on the revocation times read: the instance that revoked may have a clock a little ahead. */
const CLOCK_SLACK_MS = 5_000;

/**
 * Who a request's bearer token names. Keys once seen are kept in memory, so that a request costs
 * no query; the cache is trusted only while `refresh` (a timer, well within freshForMs) has
 * read the revocations within freshForMs; past that, each request reads its key again. Every
 * refused token costs the same: one look-up by its hash, whatever it is (unknown, truncated, of
 * another deployment, revoked, expired), and the same message. A request whose answer needs no
 * storage is answered synchronously (see execute).
 */
export class AuthenticateRequest {
  /** By the token's hash, never the token: a look-up's timing then says nothing about a token's characters. */
  private readonly known = new Map<string, KnownKey>();
  private readonly apiTokenHash: string | null;
  private keysExist = false;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private lastUses = new Map<string, Date>();

  constructor(
    private readonly keys: KeyRepository,
    private readonly secrets: TokenSecrets,
    private readonly clock: Clock,
    private readonly settings: AuthenticationSettings,
    /** Where `refresh` reads; the key storage itself unless the composition gives a session of its own. */
    private readonly changes: KeyChangesReader = keys,
  ) {
    this.apiTokenHash = settings.apiToken === null ? null : secrets.hashOf(settings.apiToken);
  }

  /**
   * `token` null: the request carried none. The actor itself when the answer needs no storage (a
   * key cached while the view of revocations is fresh, API_TOKEN, no token once the keys were
   * read), so that such a request goes on without a turn of the event loop; else a promise. Any
   * token that is not a valid key needs a look-up, so its refusal is always a promise rejected
   * with UnauthenticatedError, never a throw.
   */
  execute(token: string | null): Actor | Promise<Actor> {
    if (token === null) return this.actorWithoutToken();
    const now = this.clock.now();
    const hash = this.secrets.hashOf(token);
    if (this.apiTokenHash !== null && this.secrets.sameHash(hash, this.apiTokenHash)) return ADMIN_WITHOUT_AUTHOR;
    const cached = this.isFresh(now) ? this.known.get(hash) : undefined;
    // A key that expired while kept is read again, as any refused token is: one look-up each.
    if (cached !== undefined && isValidAt(cached.key, now)) return this.usedNow(cached, now);
    return this.readKey(hash, now);
  }

  /** Reads the revocations since the last read (with slack) and whether any key exists. */
  async refresh(): Promise<void> {
    const startedAt = this.clock.now().getTime();
    const since = Number.isFinite(this.refreshedAt) ? this.refreshedAt - CLOCK_SLACK_MS : 0;
    const changes = await this.changes.changesSince(new Date(since));
    for (const id of changes.revoked) this.forget(id);
    this.keysExist = changes.keys > 0;
    this.refreshedAt = startedAt;
  }

  /** Writes when each key was last used, in one write for every request since the last time. */
  async flushUses(): Promise<void> {
    if (this.lastUses.size === 0) return;
    const uses = this.lastUses;
    this.lastUses = new Map();
    await this.keys.recordUses(uses);
  }

  /** This instance created a key: the open rules end here at once (other instances within freshForMs). */
  keyCreated(): void {
    this.keysExist = true;
  }

  /** This instance revoked a key: refused here at once. */
  forget(keyId: string): void {
    for (const [hash, known] of this.known) if (known.key.id === keyId) this.known.delete(hash);
  }

  /**
   * Anonymous when keys or API_TOKEN exist, else open. Once the keys were read, the last reading
   * answers even when stale: a request without a token reads only what is public when they
   * exist, and needs no storage for it (reads stay up while the primary is away). Only before the
   * first reading does it wait for one.
   */
  private actorWithoutToken(): Actor | Promise<Actor> {
    if (this.apiTokenHash !== null || this.keysExist) return ANONYMOUS_ACTOR;
    if (Number.isFinite(this.refreshedAt)) return OPEN_ACTOR;
    return this.refresh().then(() => (this.keysExist ? ANONYMOUS_ACTOR : OPEN_ACTOR));
  }

  /** A key's use, flushed later by flushUses. */
  private usedNow(known: KnownKey, now: Date): Actor {
    this.lastUses.set(known.key.id, now);
    return known.actor;
  }

  private async readKey(hash: string, now: Date): Promise<Actor> {
    const known = await this.lookUp(hash, now);
    if (known === null) throw new UnauthenticatedError(NOT_A_KEY);
    return this.usedNow(known, now);
  }

  private isFresh(now: Date): boolean {
    return now.getTime() - this.refreshedAt <= this.settings.freshForMs;
  }

  private async lookUp(hash: string, now: Date): Promise<KnownKey | null> {
    const key = await this.keys.findByTokenHash(hash);
    if (key === null || !isValidAt(key, now)) {
      this.known.delete(hash);
      return null;
    }
    const known: KnownKey = { key, actor: { kind: 'key', keyId: key.id, role: key.role, author: key.author } };
    this.known.set(hash, known);
    this.keysExist = true;
    return known;
  }
}

function isValidAt(key: StoredKey, now: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
}
