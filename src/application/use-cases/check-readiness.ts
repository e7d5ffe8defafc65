import type { StorageProbe } from '../ports/storage-probe';

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether the service should receive traffic: not once shutdown has begun, and not while the
 * storage fails to answer within the timeout (a hung database must not hang the probe).
 */
export class CheckReadiness {
  private shuttingDown = false;

  constructor(
    private readonly storage: StorageProbe,
    private readonly timeoutMs: number,
  ) {}

  /** From now on the service reports not ready, so that load balancers stop sending traffic. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async execute(): Promise<Readiness> {
    if (this.shuttingDown) return { ready: false, reason: 'the service is shutting down' };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    try {
      const outcome = await Promise.race([this.storage.ping().then(() => 'answered' as const), timedOut]);
      if (outcome === 'timeout') return { ready: false, reason: `storage did not answer within ${this.timeoutMs} ms` };
      return { ready: true };
    } catch {
      return { ready: false, reason: 'storage is unreachable' };
    } finally {
      clearTimeout(timer);
    }
  }
}
