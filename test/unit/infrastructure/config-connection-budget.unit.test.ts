import { connectionBudget } from '../../../src/infrastructure/config/connection-budget';

const limits = (maxConnections: number, superuserReservedConnections: number, reservedConnections = 0) => ({
  maxConnections,
  superuserReservedConnections,
  reservedConnections,
});

describe('connectionBudget', () => {
  it.each([
    // sessions per process, workers, server limits, total, available, exceeded
    [10, 1, limits(100, 3), 10, 97, false],
    [10, 8, limits(100, 3), 80, 97, false],
    [10, 10, limits(100, 3), 100, 97, true],
    [97, 1, limits(100, 3), 97, 97, false],
    [98, 1, limits(100, 3), 98, 97, true],
    // PostgreSQL 16+: reserved_connections comes off too.
    [45, 2, limits(100, 3, 5), 90, 92, false],
    [47, 2, limits(100, 3, 5), 94, 92, true],
    // More reserved slots than connections: nothing is left for the service.
    [1, 1, limits(5, 5, 2), 1, 0, true],
  ])(
    'sessions %p × workers %p on %j: total %p, available %p, exceeded %p',
    (pool, workers, server, total, available, exceeded) => {
      expect(connectionBudget(pool, workers, server)).toEqual({ total, available, exceeded });
    },
  );
});
