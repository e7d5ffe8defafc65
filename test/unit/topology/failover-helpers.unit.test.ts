import { isHealthy } from '../../../scripts/topology/topology';
import type { RequestRecord } from '../../support/load/request-log';
import { timelineSvg } from '../../support/load/timeline-svg';

const record = (operation: string, endedAt: number, status: number | null): RequestRecord => ({
  operation,
  startedAt: endedAt - 5,
  endedAt,
  status,
  failure: status === null ? 'ECONNRESET' : null,
  reusedSocket: false,
});

describe('isHealthy (the cluster `up` and the failover test wait for)', () => {
  const member = (name: string, role: string, state = 'running') => ({ name, role, state });

  it('wants one leader, a synchronous standby, and every member running', () => {
    expect(isHealthy([member('a', 'leader'), member('b', 'sync_standby'), member('c', 'sync_standby')], 3)).toBe(true);
    expect(isHealthy([member('a', 'leader'), member('b', 'sync_standby'), member('c', 'replica')], 3)).toBe(true);
  });

  it('refuses a missing or stopped member, no synchronous standby, or two leaders', () => {
    expect(isHealthy([member('a', 'leader'), member('b', 'sync_standby')], 3)).toBe(false);
    expect(isHealthy([member('a', 'leader'), member('b', 'sync_standby'), member('c', 'replica', 'stopped')], 3)).toBe(
      false,
    );
    expect(isHealthy([member('a', 'leader'), member('b', 'replica'), member('c', 'replica')], 3)).toBe(false);
    expect(isHealthy([member('a', 'leader'), member('b', 'leader'), member('c', 'sync_standby')], 3)).toBe(false);
  });
});

describe('timelineSvg', () => {
  it('stacks each 100 ms bucket by outcome, writes and reads apart, and draws the marks', () => {
    const svg = timelineSvg(
      'a <test>',
      [record('create', 50, 201), record('create', 60, 503), record('list', 150, 200), record('read-one', 160, null)],
      0,
      300,
      [{ label: 'fault', at: 100 }],
    );
    expect(svg).toContain('<title>a &lt;test&gt;</title>');
    // Bucket 0 of the writes: one 2xx (green) and one 503 (amber), each half of the peak (2).
    expect(svg.match(/fill="#2e7d32"\/>/g)?.length).toBe(1 + 2); // legend + a write + a read
    expect(svg.match(/fill="#f9a825"\/>/g)?.length).toBe(1 + 1);
    expect(svg.match(/fill="#c62828"\/>/g)?.length).toBe(1 + 1);
    expect(svg).toContain('peak 2 answers');
    expect(svg).toContain('>fault</text>');
  });
});
