import { StorageUnavailableError } from '../../../src/domain';
import { withinDeadline } from '../../../src/infrastructure/persistence/typeorm/storage-deadline';

describe('withinDeadline', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const settleLater = <T>(after: number, outcome: () => T) =>
    new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      }, after),
    );

  it("answers the work's result when it comes first", async () => {
    const answer = withinDeadline(
      settleLater(100, () => 'stored'),
      2_000,
    );
    await jest.advanceTimersByTimeAsync(100);
    await expect(answer).resolves.toBe('stored');
  });

  it("passes the work's own failure through when it comes first", async () => {
    const failure = new Error('duplicate key');
    const answer = withinDeadline(
      settleLater(100, () => {
        throw failure;
      }),
      2_000,
    );
    const settled = expect(answer).rejects.toBe(failure);
    await jest.advanceTimersByTimeAsync(100);
    await settled;
  });

  it('fails as storage unavailable at the deadline when the work has not answered', async () => {
    const answer = withinDeadline(new Promise<never>(() => {}), 2_000);
    const settled = expect(answer).rejects.toBeInstanceOf(StorageUnavailableError);
    await jest.advanceTimersByTimeAsync(2_000);
    await settled;
  });

  it("drops the work's late failure instead of leaving it unhandled", async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const answer = withinDeadline(
        settleLater(5_000, () => {
          throw new Error('connection terminated');
        }),
        2_000,
      );
      const settled = expect(answer).rejects.toBeInstanceOf(StorageUnavailableError);
      await jest.advanceTimersByTimeAsync(5_000);
      await settled;
      // Unhandled rejections are reported after the microtask queue drains.
      jest.useRealTimers();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
