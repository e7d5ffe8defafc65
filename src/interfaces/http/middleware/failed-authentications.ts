import { LRUCache } from 'lru-cache';

/** Refused tokens an address may present in a window; then every token it presents is a 429 until the window ends. */
export const FAILED_AUTHENTICATION_LIMIT = { attempts: 20, windowMs: 60_000 } as const;

/**
 * Refused bearer tokens per client address, in fixed windows, in this process's memory (each
 * instance counts its own). Only refusals count, when they happen: a client's own traffic,
 * however concurrent, never adds up to a limit. The addresses kept are bounded.
 */
export class FailedAuthentications {
  private readonly windows = new LRUCache<string, { hits: number; endsAt: number }>({ max: 100_000 });
  /** When the last window opened so far ends: until then some address may be limited. */
  private lastWindowEndsAt = Number.NEGATIVE_INFINITY;

  /**
   * Whether any address may be limited now, i.e. some token was refused within a window: when
   * none was, a request need not work out its client's address at all.
   */
  anyAddressLimited(now = Date.now()): boolean {
    return now < this.lastWindowEndsAt;
  }

  /** Seconds until `address` may present a token again; 0 when it may now. */
  retryAfterSeconds(address: string, now = Date.now()): number {
    const window = this.windows.get(address);
    if (!window || window.endsAt <= now || window.hits < FAILED_AUTHENTICATION_LIMIT.attempts) return 0;
    return Math.max(1, Math.ceil((window.endsAt - now) / 1_000));
  }

  record(address: string, now = Date.now()): void {
    const window = this.windows.get(address);
    if (!window || window.endsAt <= now) {
      this.windows.set(address, { hits: 1, endsAt: now + FAILED_AUTHENTICATION_LIMIT.windowMs });
      this.lastWindowEndsAt = Math.max(this.lastWindowEndsAt, now + FAILED_AUTHENTICATION_LIMIT.windowMs);
    } else {
      window.hits++;
    }
  }
}
