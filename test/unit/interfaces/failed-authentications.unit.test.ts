import {
  FAILED_AUTHENTICATION_LIMIT,
  FailedAuthentications,
} from '../../../src/interfaces/http/middleware/failed-authentications';

describe('FailedAuthentications', () => {
  const { attempts, windowMs } = FAILED_AUTHENTICATION_LIMIT;

  it('lets an address present tokens until its refusals reach the limit, then until its window ends', () => {
    const failures = new FailedAuthentications();
    for (let n = 0; n < attempts - 1; n++) failures.record('10.0.0.1', 1_000 + n);
    expect(failures.retryAfterSeconds('10.0.0.1', 2_000)).toBe(0);
    // The window began at the first refusal (1 s): 59 s of it are left.
    failures.record('10.0.0.1', 2_000);
    expect(failures.retryAfterSeconds('10.0.0.1', 2_000)).toBe(windowMs / 1_000 - 1);
    expect(failures.retryAfterSeconds('10.0.0.2', 2_000)).toBe(0);
    expect(failures.retryAfterSeconds('10.0.0.1', 1_000 + windowMs - 1)).toBe(1);
    expect(failures.retryAfterSeconds('10.0.0.1', 1_000 + windowMs)).toBe(0);
  });

  it('starts a new window after one ends', () => {
    const failures = new FailedAuthentications();
    for (let n = 0; n < attempts; n++) failures.record('a', 0);
    failures.record('a', windowMs);
    expect(failures.retryAfterSeconds('a', windowMs)).toBe(0);
  });

  it('says whether any address may be limited: from a first refusal until its window ends', () => {
    const failures = new FailedAuthentications();
    expect(failures.anyAddressLimited(0)).toBe(false);
    failures.record('a', 1_000);
    expect(failures.anyAddressLimited(1_000)).toBe(true);
    failures.record('b', 5_000);
    expect(failures.anyAddressLimited(1_000 + windowMs)).toBe(true);
    expect(failures.anyAddressLimited(5_000 + windowMs)).toBe(false);
  });
});
