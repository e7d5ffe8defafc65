import { Gauge, Registry } from 'prom-client';
import { StorageUnavailableError } from '../../../domain';
import { storageErrorCode } from './storage-errors';

/** What the primary can do now, as the last call or probe found it. */
export type PrimaryState = 'writable' | 'read-only' | 'unreachable';

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

export interface PrimaryWriteGateOptions {
  /** Asks the primary what it can do; resolves within its own deadline. */
  probe: () => Promise<PrimaryState>;
  /** How often the probe runs while the gate refuses writes. */
  probeEveryMs?: number;
  /** The state changed (for the log). */
  onChange?: (state: PrimaryState) => void;
}

/**
 * A gate in front of the primary's writes (a circuit breaker): it refuses them while the
 * primary is away. A failure that may mean the primary is gone (the connection broke or could
 * not be opened, the deadline passed, the server is a standby now) starts a probe at once; one
 * failed session alone (a terminated backend) does not stop the writes. When the probe finds
 * the primary unreachable or read-only, the gate refuses writes: they fail at once with
 * StorageUnavailableError instead of each waiting out a connect timeout or the call deadline on
 * a dead address. Meanwhile the probe runs every `probeEveryMs`, and the first one that finds
 * the primary writable lets writes through again, as does a readiness check that finds it
 * writable, so writes come back within one probe interval of a new primary taking them.
 *
 * Reads are not held back: they are safe to try, go to a replica first when there is one, and a
 * read that finds the primary back serves at once.
 */
export class PrimaryWriteGate {
  readonly registry = new Registry();
  private readonly writable = new Gauge({
    name: 'db_primary_writable',
    help: 'Whether writes go to the primary (1) or are refused at once because it is gone or read-only (0)',
    registers: [this.registry],
  });
  private state: PrimaryState = 'writable';
  /** When the probe under way started (null: none); only the latest probe's finding counts. */
  private probingSince: number | null = null;
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly probeEveryMs: number;

  constructor(private readonly options: PrimaryWriteGateOptions) {
    this.probeEveryMs = options.probeEveryMs ?? 300;
    this.writable.set(1);
  }

  get current(): PrimaryState {
    return this.state;
  }

  /** Throws StorageUnavailableError at once while the primary is known not to take writes. */
  admitWrite(): void {
    if (this.state !== 'writable') throw new StorageUnavailableError();
  }

  /** A call on the primary failed: a failure that may mean the primary is gone starts a probe. */
  failed(error: unknown): void {
    if (primaryStateAfter(error)) this.suspect();
  }

  /**
   * No connection to the primary could be had (refused, timed out, refused at login), or the
   * call deadline passed without an answer: the probe decides whether the primary is gone.
   */
  suspect(): void {
    // While open, the probe runs on its own schedule.
    if (this.state === 'writable' && this.probingSince === null) void this.probeNow();
  }

  /**
   * A call on the primary succeeded. While it was unreachable, that is the proof it is back:
   * writes go to it again at once (one that finds it read-only closes the gate again through its
   * 25006). While read-only, the probe asks now rather than at the next interval; a probe still
   * waiting on the address from before (a frozen host that resumed) does not hold this up.
   */
  answered(): void {
    if (this.state === 'writable') return;
    if (this.state === 'unreachable') {
      this.recovered();
      return;
    }
    if (this.probingSince !== null && Date.now() - this.probingSince < this.probeEveryMs) return;
    void this.probeNow();
  }

  /** Something else found the primary writable (a readiness check): writes go to it again. */
  recovered(): void {
    clearTimeout(this.timer);
    // A probe under way asked before this answer: its finding is older.
    this.generation++;
    this.probingSince = null;
    this.set('writable');
  }

  /** Stops the background probe for good (at shutdown). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async probeNow(): Promise<void> {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const mine = ++this.generation;
    this.probingSince = Date.now();
    let found: PrimaryState;
    try {
      found = await this.options.probe();
    } catch {
      found = 'unreachable';
    }
    // A later probe (or a readiness check) decides instead.
    if (this.stopped || mine !== this.generation) return;
    this.probingSince = null;
    this.set(found);
    if (found !== 'writable') {
      this.timer = setTimeout(() => void this.probeNow(), this.probeEveryMs);
      this.timer.unref();
    }
  }

  private set(state: PrimaryState): void {
    if (state === this.state) return;
    this.state = state;
    this.writable.set(state === 'writable' ? 1 : 0);
    this.options.onChange?.(state);
  }
}
