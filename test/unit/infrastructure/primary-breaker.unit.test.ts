import { StorageUnavailableError } from '../../../src/domain';
import {
  PrimaryBreaker,
  type PrimaryState,
  primaryStateAfter,
} from '../../../src/infrastructure/persistence/typeorm/primary-breaker';

const withCode = (code: string) => Object.assign(new Error(code), { code });

/** A probe whose answers the test hands out one by one, and that says when it was asked. */
function scriptedProbe() {
  const asked: Array<(state: PrimaryState) => void> = [];
  let onAsked: (() => void) | undefined;
  return {
    probe: () =>
      new Promise<PrimaryState>((resolve) => {
        asked.push(resolve);
        onAsked?.();
      }),
    /** Resolves once the breaker has asked, then answers `state`. */
    async answer(state: PrimaryState) {
      if (asked.length === 0) await new Promise<void>((resolve) => (onAsked = resolve));
      (asked.shift() as (state: PrimaryState) => void)(state);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('primaryStateAfter', () => {
  it.each([
    ['25006', 'read-only'],
    ['57P01', 'unreachable'],
    ['57P03', 'unreachable'],
    ['08006', 'unreachable'],
    ['08P01', 'unreachable'],
    ['ECONNREFUSED', 'unreachable'],
    ['ECONNRESET', 'unreachable'],
  ])('%s says the primary is %s', (code, state) => {
    expect(primaryStateAfter(withCode(code))).toBe(state);
  });

  it.each(['23505', '40001', '57014', '53300', 'SQLITE_BUSY'])('%s says nothing about the primary', (code) => {
    expect(primaryStateAfter(withCode(code))).toBeNull();
  });

  it('an error without a code says nothing', () => {
    expect(primaryStateAfter(new Error('boom'))).toBeNull();
  });
});

describe('PrimaryBreaker', () => {
  const breakers: PrimaryBreaker[] = [];
  afterEach(() => {
    for (const breaker of breakers.splice(0)) breaker.stop();
  });
  function breakerWith(probe: () => Promise<PrimaryState>) {
    const changes: PrimaryState[] = [];
    const breaker = new PrimaryBreaker({ probe, probeEveryMs: 1, onChange: (state) => changes.push(state) });
    breakers.push(breaker);
    return { breaker, changes };
  }

  it('admits every call while the primary takes writes, and ignores failures that say nothing of it', () => {
    const { breaker } = breakerWith(scriptedProbe().probe);
    breaker.failed(withCode('23505'));
    expect(() => breaker.admit('write')).not.toThrow();
    expect(() => breaker.admit('read')).not.toThrow();
  });

  it('refuses every call at once once the primary is unreachable, until a probe finds it writable', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.failed(withCode('ECONNREFUSED'));
    expect(() => breaker.admit('write')).toThrow(StorageUnavailableError);
    expect(() => breaker.admit('read')).toThrow(StorageUnavailableError);

    await script.answer('unreachable');
    expect(() => breaker.admit('write')).toThrow(StorageUnavailableError);
    await script.answer('writable');
    expect(() => breaker.admit('write')).not.toThrow();
    expect(changes).toEqual(['unreachable', 'writable']);
  });

  it('refuses only writes while the primary is read-only (a demoted node still serves reads)', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.failed(withCode('25006'));
    expect(() => breaker.admit('write')).toThrow(StorageUnavailableError);
    expect(() => breaker.admit('read')).not.toThrow();
    await script.answer('read-only');
    await script.answer('writable');
    expect(() => breaker.admit('write')).not.toThrow();
    expect(changes).toEqual(['read-only', 'writable']);
  });

  it('opens on a call that got no connection or passed its deadline', () => {
    const { breaker } = breakerWith(scriptedProbe().probe);
    breaker.unreachable();
    expect(breaker.current).toBe('unreachable');
  });
});
