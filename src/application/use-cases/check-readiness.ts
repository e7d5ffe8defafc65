import type { StorageProbe } from '../ports/storage-probe';
import type { ServiceLifecycle } from '../service-lifecycle';

/** Ready: reads can be served, and `writes` says whether writes can too. */
export type Readiness = { ready: true; writes: boolean } | { ready: false; reason: string };

/** What the asker needs the instance to serve: reads (a load balancer, a readiness probe) or writes too. */
export type ReadinessNeed = 'reads' | 'writes';

/**
 * Whether the service should receive traffic: not once shutdown has begun, and not while the
 * storage fails to answer within the timeout (a hung database must not hang the probe). An
 * instance whose reads are served (by a replica while the primary is gone) is ready; it says
 * whether writes are, and is not ready for an asker that needs writes.
 */
export class CheckReadiness {
  constructor(
    private readonly storage: StorageProbe,
    private readonly lifecycle: ServiceLifecycle,
    private readonly timeoutMs: number,
  ) {}

  async execute(need: ReadinessNeed = 'reads'): Promise<Readiness> {
    if (this.lifecycle.isShuttingDown) return { ready: false, reason: 'the service is shutting down' };
    const [reads, writes] = await Promise.all([
      this.within(this.storage.pingReads()),
      this.within(this.storage.pingWrites()),
    ]);
    if (reads !== 'answered') return { ready: false, reason: this.describe(reads) };
    if (need === 'writes' && writes !== 'answered') {
      return { ready: false, reason: `writes cannot be served: ${this.describe(writes)}` };
    }
    return { ready: true, writes: writes === 'answered' };
  }

  private describe(outcome: 'failed' | 'timeout'): string {
    return outcome === 'timeout' ? `storage did not answer within ${this.timeoutMs} ms` : 'storage is unreachable';
  }

  private async within(ping: Promise<void>): Promise<'answered' | 'failed' | 'timeout'> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    try {
      return await Promise.race([ping.then(() => 'answered' as const), timedOut]);
    } catch {
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }
}
