import { StorageUnavailableError } from '../../../domain';
import { storageErrorCode } from './storage-errors';

/** What the primary can do now, as the last call or probe found it. */
export type PrimaryState = 'writable' | 'read-only' | 'unreachable';

/** What a call asks of the primary. */
export type PrimaryUse = 'write' | 'read';

/**
 * Failures that say the primary's address no longer leads to a primary that takes writes: the
 * connection broke or could not be opened (class 08, network errors, a connect timeout, the
 * call deadline), the server is shutting down or starting (57P0x), or it is a standby now
 * (25006: a demoted primary, or a read-only node behind a stale route).
 */
export function primaryStateAfter(error: unknown): PrimaryState | null {
  const code = storageErrorCode(error);
  if (code === '25006') return 'read-only';
  if (code !== undefined && /^(08|57P0[1-4]$)|^E[A-Z]+$/.test(code)) return 'unreachable';
  return null;
}

export interface PrimaryBreakerOptions {
  /** Asks the primary what it can do; resolves within its own deadline. */
  probe: () => Promise<PrimaryState>;
  /** How often the probe runs while the breaker is open. */
  probeEveryMs?: number;
  /** The state changed (for the log). */
  onChange?: (state: PrimaryState) => void;
}

/**
 * A circuit breaker in front of the primary. After a failure that says the primary is gone
 * (or read-only), calls that need it fail at once with StorageUnavailableError instead of each
 * waiting out a connect timeout or the call deadline on a dead address; reads are still tried
 * on a primary that is only read-only. While open, a background probe asks the primary every
 * `probeEveryMs`, and the first probe that finds it writable closes the breaker again, so
 * writes come back within one probe interval of a new primary taking them.
 */
export class PrimaryBreaker {
  private state: PrimaryState = 'writable';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly probeEveryMs: number;

  constructor(private readonly options: PrimaryBreakerOptions) {
    this.probeEveryMs = options.probeEveryMs ?? 300;
  }

  get current(): PrimaryState {
    return this.state;
  }

  /** Throws StorageUnavailableError at once when a call of this use cannot succeed on the primary now. */
  admit(use: PrimaryUse): void {
    if (this.state === 'writable') return;
    if (use === 'read' && this.state === 'read-only') return;
    throw new StorageUnavailableError();
  }

  /** A call on the primary failed: opens the breaker when the failure says the primary is gone. */
  failed(error: unknown): void {
    const state = primaryStateAfter(error);
    if (state) this.set(state);
  }

  /**
   * No connection to the primary could be had (refused, timed out, refused at login), or the
   * call deadline passed without an answer: unreachable until a probe says otherwise.
   */
  unreachable(): void {
    this.set('unreachable');
  }

  /** Stops the background probe for good (at shutdown). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private set(state: PrimaryState): void {
    if (state === this.state) return;
    // "read-only" must not hide that the primary is unreachable altogether.
    if (state === 'read-only' && this.state === 'unreachable') return;
    const wasOpen = this.state !== 'writable';
    this.state = state;
    this.options.onChange?.(state);
    if (!wasOpen && state !== 'writable') this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.probeOnce(), this.probeEveryMs);
    this.timer.unref();
  }

  private async probeOnce(): Promise<void> {
    let found: PrimaryState;
    try {
      found = await this.options.probe();
    } catch {
      found = 'unreachable';
    }
    if (this.stopped) return;
    // The probe's finding replaces whatever the calls saw meanwhile.
    if (found !== this.state) {
      this.state = found;
      this.options.onChange?.(found);
    }
    if (found !== 'writable') this.scheduleProbe();
  }
}
