import { CheckReadiness, ServiceLifecycle } from '../../../src/application';

describe('CheckReadiness', () => {
  const running = () => new ServiceLifecycle();

  it('is ready when the storage answers', async () => {
    await expect(new CheckReadiness({ ping: async () => {} }, running(), 100).execute()).resolves.toEqual({
      ready: true,
    });
  });

  it('is not ready when the storage fails', async () => {
    const failing = { ping: () => Promise.reject(new Error('ECONNREFUSED')) };
    await expect(new CheckReadiness(failing, running(), 100).execute()).resolves.toEqual({
      ready: false,
      reason: 'storage is unreachable',
    });
  });

  it('gives up on a storage that hangs, after the timeout', async () => {
    const hanging = { ping: () => new Promise<void>(() => {}) };
    await expect(new CheckReadiness(hanging, running(), 20).execute()).resolves.toEqual({
      ready: false,
      reason: 'storage did not answer within 20 ms',
    });
  });

  it('is not ready once shutdown has begun, without asking the storage', async () => {
    let pings = 0;
    const lifecycle = new ServiceLifecycle();
    const readiness = new CheckReadiness({ ping: async () => void pings++ }, lifecycle, 100);
    await expect(readiness.execute()).resolves.toEqual({ ready: true });
    expect(lifecycle.isShuttingDown).toBe(false);

    lifecycle.beginShutdown();

    expect(lifecycle.isShuttingDown).toBe(true);
    await expect(readiness.execute()).resolves.toEqual({ ready: false, reason: 'the service is shutting down' });
    expect(pings).toBe(1);
  });
});
