import { startRepeating } from '../../../src/infrastructure/scheduling/repeating-task';

describe('startRepeating', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs the task every interval after the previous run ended, reports failures, and stops', async () => {
    const runs: number[] = [];
    const errors: unknown[] = [];
    let finish: () => void = () => {};
    const task = jest.fn(async () => {
      runs.push(Date.now());
      if (runs.length === 2) throw new Error('second run fails');
      if (runs.length === 3) await new Promise<void>((resolve) => (finish = resolve));
    });
    const repeating = startRepeating(task, 1_000, (error) => errors.push(error), 100);

    await jest.advanceTimersByTimeAsync(99);
    expect(task).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(task).toHaveBeenCalledTimes(2);
    expect(errors).toEqual([new Error('second run fails')]);
    await jest.advanceTimersByTimeAsync(1_000);
    // The third run has not ended: no fourth starts beside it.
    await jest.advanceTimersByTimeAsync(5_000);
    expect(task).toHaveBeenCalledTimes(3);
    finish();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(task).toHaveBeenCalledTimes(4);
    repeating.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(4);
  });
});
