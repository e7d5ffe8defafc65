import type { StorageProbe } from '../ports/storage-probe';
import type { ServiceLifecycle } from '../service-lifecycle';

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether the service should receive traffic: not once shutdown has begun, and not while the
 * storage fails to answer within the timeout (a hung database must not hang the probe).
 */
export class CheckReadiness {
  constructor(
    private readonly storage: StorageProbe,
    private readonly lifecycle: ServiceLifecycle,
    private readonly timeoutMs: number,
  ) {}

  async execute(): Promise<Readiness> {
    if (this.lifecycle.isShuttingDown) return { ready: false, reason: 'the service is shutting down' };
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
