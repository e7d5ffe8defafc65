import type { SqlDatabaseConfig } from '../../../src/infrastructure/config/config';

/** How many more attempts the fake database refuses: each one's first DataSource fails to open. */
const refusals = { left: 0 };
jest.mock('../../../src/infrastructure/persistence/typeorm/data-source', () => ({
  createDataSource: () => {
    const dataSource = {
      isInitialized: false,
      initialize: jest.fn(async () => {
        if (refusals.left > 0) {
          refusals.left--;
          throw new Error('connection refused');
        }
        dataSource.isInitialized = true;
      }),
      destroy: jest.fn(async () => {
        dataSource.isInitialized = false;
      }),
    };
    return dataSource;
  },
  migrateUnderLock: async () => {},
}));

/** The real waits, recorded: the connector's between attempts are the ones it can abort. */
const waitsBetweenAttempts: number[] = [];
jest.mock('node:timers/promises', () => {
  const actual = jest.requireActual('node:timers/promises');
  return {
    ...actual,
    setTimeout: (delayMs: number, value: unknown, options?: { signal?: AbortSignal }) => {
      if (options?.signal) waitsBetweenAttempts.push(delayMs);
      return actual.setTimeout(delayMs, value, options);
    },
  };
});

import { DataSourceConnector } from '../../../src/infrastructure/persistence/data-source-connector';

const DATABASE = { kind: 'postgres', url: 'postgres://unused' } as unknown as SqlDatabaseConfig;

describe('DataSourceConnector', () => {
  beforeEach(() => {
    waitsBetweenAttempts.length = 0;
  });
  afterEach(() => jest.restoreAllMocks());

  it('retries with doubling waits up to the cap, each shortened by up to half, and reports them unshortened', async () => {
    // The shortest waits: half of each.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    refusals.left = 5;
    const failures: Array<[attempt: number, retryInMs: number]> = [];
    let connected: (attempts: number) => void = () => {};
    const connectedAfter = new Promise<number>((resolve) => (connected = resolve));
    const connector = new DataSourceConnector(
      DATABASE,
      { onAttemptFailed: (_error, attempt, retryInMs) => failures.push([attempt, retryInMs]), onConnected: connected },
      { firstMs: 10, maxMs: 40 },
    );

    await connector.start();

    await expect(connectedAfter).resolves.toBe(6);
    expect(failures).toEqual([
      [1, 10],
      [2, 20],
      [3, 40],
      [4, 40],
      [5, 40],
    ]);
    expect(waitsBetweenAttempts).toEqual([5, 10, 20, 20, 20]);
    expect(connector.dataSource.isInitialized).toBe(true);
    await connector.close();
    expect(connector.dataSource.isInitialized).toBe(false);
  });

  it('waits up to the whole planned wait', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    refusals.left = 2;
    let connected: () => void = () => {};
    const connectedNow = new Promise<void>((resolve) => (connected = resolve));
    const connector = new DataSourceConnector(DATABASE, { onConnected: () => connected() }, { firstMs: 8, maxMs: 100 });

    await connector.start();
    await connectedNow;

    expect(waitsBetweenAttempts).toEqual([6, 12]);
    await connector.close();
  });

  it('stops retrying when closed while waiting', async () => {
    refusals.left = 1_000;
    const attempts: number[] = [];
    const connector = new DataSourceConnector(DATABASE, {
      onAttemptFailed: (_error, attempt) => attempts.push(attempt),
    });

    await connector.start();
    await connector.close();
    // Longer than the first wait of CONNECT_BACKOFF (250 ms at most).
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(attempts).toEqual([1]);
    expect(waitsBetweenAttempts).toHaveLength(1);
    expect(connector.dataSource.isInitialized).toBe(false);
  });
});
