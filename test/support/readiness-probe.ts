import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestRecord } from './load/request-log';
import { RawHttpClient } from './raw-http';

/** Asks GET /ready at a steady interval, as a load balancer would, recording each answer. */
export class ReadinessProbe {
  private readonly http: RawHttpClient;
  private readonly records: RequestRecord[] = [];
  private stopping = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    baseUrl: string,
    private readonly intervalMs: number,
  ) {
    this.http = new RawHttpClient(baseUrl, { maxSockets: 1, deadlineMs: 15_000 });
  }

  start(): this {
    this.running = this.loop();
    return this;
  }

  async stop(): Promise<RequestRecord[]> {
    this.stopping = true;
    await this.running;
    this.http.close();
    return this.records;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const startedAt = performance.now();
      const exchange = await this.http.get('/ready');
      this.records.push({
        operation: 'ready',
        startedAt,
        endedAt: performance.now(),
        status: exchange.kind === 'answered' ? exchange.status : null,
        failure: exchange.kind === 'failed' ? exchange.code : null,
        reusedSocket: exchange.reusedSocket,
      });
      await sleep(Math.max(0, startedAt + this.intervalMs - performance.now()));
    }
  }
}
