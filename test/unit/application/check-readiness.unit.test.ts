import { CheckReadiness, ServiceLifecycle, type StorageProbe } from '../../../src/application';

describe('CheckReadiness', () => {
  const running = () => new ServiceLifecycle();
  const answers = async () => {};
  const fails = () => Promise.reject(new Error('ECONNREFUSED'));
  const hangs = () => new Promise<void>(() => {});
  const probe = (pingReads: () => Promise<void>, pingWrites: () => Promise<void>): StorageProbe => ({
    pingReads,
    pingWrites,
  });

  it('is ready for reads and writes when the storage answers both', async () => {
    const readiness = new CheckReadiness(probe(answers, answers), running(), 100);
    await expect(readiness.execute()).resolves.toEqual({ ready: true, writes: true });
    await expect(readiness.execute('writes')).resolves.toEqual({ ready: true, writes: true });
  });

  it('is ready, writes unavailable, when only reads are served; not ready for an asker that needs writes', async () => {
    const readiness = new CheckReadiness(probe(answers, fails), running(), 100);
    await expect(readiness.execute('reads')).resolves.toEqual({ ready: true, writes: false });
    await expect(readiness.execute('writes')).resolves.toEqual({
      ready: false,
      reason: 'writes cannot be served: storage is unreachable',
    });
  });

  it('is not ready when no storage serves reads', async () => {
    await expect(new CheckReadiness(probe(fails, fails), running(), 100).execute()).resolves.toEqual({
      ready: false,
      reason: 'storage is unreachable',
    });
  });

  it('gives up on a storage that hangs, after the timeout', async () => {
    const readiness = new CheckReadiness(probe(hangs, hangs), running(), 20);
    await expect(readiness.execute()).resolves.toEqual({
      ready: false,
      reason: 'storage did not answer within 20 ms',
    });
    await expect(new CheckReadiness(probe(answers, hangs), running(), 20).execute('writes')).resolves.toEqual({
      ready: false,
      reason: 'writes cannot be served: storage did not answer within 20 ms',
    });
  });

  it('is not ready once shutdown has begun, without asking the storage', async () => {
    let pings = 0;
    const lifecycle = new ServiceLifecycle();
    const counted = async () => void pings++;
    const readiness = new CheckReadiness(probe(counted, counted), lifecycle, 100);
    await expect(readiness.execute()).resolves.toEqual({ ready: true, writes: true });
    expect(lifecycle.isShuttingDown).toBe(false);

    lifecycle.beginShutdown();

    expect(lifecycle.isShuttingDown).toBe(true);
    await expect(readiness.execute()).resolves.toEqual({ ready: false, reason: 'the service is shutting down' });
    await expect(readiness.execute('writes')).resolves.toEqual({
      ready: false,
      reason: 'the service is shutting down',
    });
    expect(pings).toBe(2);
  });
});
