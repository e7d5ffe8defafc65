import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../application';

/** The machine's clock and its timers. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }

  async sleep(ms: number): Promise<void> {
    await sleep(ms);
  }
}
