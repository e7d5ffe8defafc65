import { StorageUnavailableError } from '../../../src/domain';
import {
  type PrimaryState,
  PrimaryWriteGate,
  primaryStateAfter,
} from '../../../src/infrastructure/persistence/typeorm/primary-write-gate';

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

describe('PrimaryWriteGate', () => {
  const breakers: PrimaryWriteGate[] = [];
  afterEach(() => {
    for (const breaker of breakers.splice(0)) breaker.stop();
  });
  function breakerWith(probe: () => Promise<PrimaryState>) {
    const changes: PrimaryState[] = [];
    const breaker = new PrimaryWriteGate({ probe, probeEveryMs: 1, onChange: (state) => changes.push(state) });
    breakers.push(breaker);
    return { breaker, changes };
  }
  const writable = async (breaker: PrimaryWriteGate) =>
    (await breaker.registry.getSingleMetric('db_primary_writable')?.get())?.values[0]?.value;

  it('admits writes while the primary takes them, and ignores failures that say nothing of it', async () => {
    const { breaker } = breakerWith(() => Promise.reject(new Error('never asked')));
    breaker.failed(withCode('23505'));
    expect(() => breaker.admitWrite()).not.toThrow();
    expect(await writable(breaker)).toBe(1);
  });

  it('keeps admitting writes when the probe a failure started finds the primary writable (one session ended)', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.failed(withCode('57P01'));
    expect(() => breaker.admitWrite()).not.toThrow();
    await script.answer('writable');
    expect(() => breaker.admitWrite()).not.toThrow();
    expect(changes).toEqual([]);
  });

  it('refuses writes at once once the probe finds the primary unreachable, until a probe finds it writable', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.failed(withCode('ECONNREFUSED'));
    await script.answer('unreachable');
    expect(() => breaker.admitWrite()).toThrow(StorageUnavailableError);
    expect(await writable(breaker)).toBe(0);

    await script.answer('unreachable');
    expect(() => breaker.admitWrite()).toThrow(StorageUnavailableError);
    await script.answer('writable');
    expect(() => breaker.admitWrite()).not.toThrow();
    expect(await writable(breaker)).toBe(1);
    expect(changes).toEqual(['unreachable', 'writable']);
  });

  it('refuses writes while the primary is read-only (a demoted node), until a probe finds a writable one', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.failed(withCode('25006'));
    await script.answer('read-only');
    expect(() => breaker.admitWrite()).toThrow(StorageUnavailableError);
    await script.answer('writable');
    expect(() => breaker.admitWrite()).not.toThrow();
    expect(changes).toEqual(['read-only', 'writable']);
  });

  it('probes on a call that got no connection or passed its deadline, once at a time', async () => {
    let probes = 0;
    const script = scriptedProbe();
    const { breaker } = breakerWith(() => {
      probes++;
      return script.probe();
    });
    breaker.suspect();
    breaker.suspect();
    expect(probes).toBe(1);
    await script.answer('unreachable');
    expect(breaker.current).toBe('unreachable');
  });

  it('closes at once when a call on the primary succeeds while it was unreachable', async () => {
    const script = scriptedProbe();
    const { breaker, changes } = breakerWith(script.probe);
    breaker.answered();
    breaker.suspect();
    await script.answer('unreachable');
    breaker.answered();
    expect(() => breaker.admitWrite()).not.toThrow();
    expect(changes).toEqual(['unreachable', 'writable']);
  });

  it('probes at once, not at the next interval, when a read succeeds on a read-only primary', async () => {
    let probes = 0;
    const script = scriptedProbe();
    const breaker = new PrimaryWriteGate({
      probe: () => {
        probes++;
        return script.probe();
      },
      probeEveryMs: 60_000,
    });
    breakers.push(breaker);
    breaker.failed(withCode('25006'));
    await script.answer('read-only');
    expect(probes).toBe(1);
    breaker.answered();
    expect(probes).toBe(2);
    await script.answer('writable');
    expect(() => breaker.admitWrite()).not.toThrow();
  });

  it('does not let a probe stuck on the old address hold up the one a successful read starts', async () => {
    const script = scriptedProbe();
    const { breaker } = breakerWith(script.probe);
    breaker.failed(withCode('25006'));
    await script.answer('read-only');
    // The next probe starts (every 1 ms) and hangs, as on a frozen host.
    await new Promise((resolve) => setTimeout(resolve, 20));
    breaker.answered();
    // Two probes wait now, the stuck one first: its finding, whatever it is, no longer counts.
    await script.answer('writable');
    expect(breaker.current).toBe('read-only');
    await script.answer('writable');
    expect(breaker.current).toBe('writable');
  });

  it('closes when a readiness check finds the primary writable, without waiting for the probe', async () => {
    const script = scriptedProbe();
    const { breaker } = breakerWith(script.probe);
    breaker.suspect();
    await script.answer('unreachable');
    breaker.recovered();
    expect(() => breaker.admitWrite()).not.toThrow();
  });
});
