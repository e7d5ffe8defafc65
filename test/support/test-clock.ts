import type { Clock } from '../../src/application';

/**
 * A clock that says what the test sets, and moves when told (or by `stepMs` after each reading, or
 * by a wait asked of it).
 */
export class TestClock implements Clock {
  private current: Date;
  /** Every wait asked of it, in order. */
  readonly slept: number[] = [];

  constructor(
    start: Date | string = '2026-01-01T00:00:00.000Z',
    private readonly stepMs = 0,
  ) {
    this.current = new Date(start);
  }

  /** A fresh copy each time, so a caller cannot move the clock by mutating the result. */
  now(): Date {
    const now = new Date(this.current);
    this.current = new Date(now.getTime() + this.stepMs);
    return now;
  }

  set(at: Date | string): void {
    this.current = new Date(at);
  }

  /** Moves on by `ms` instead of waiting, and lets what is due run first (a turn of the event loop). */
  async sleep(ms: number): Promise<void> {
    this.slept.push(ms);
    this.advance(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }

  advance(milliseconds: number): Date {
    this.current = new Date(this.current.getTime() + milliseconds);
    return this.now();
  }
}
