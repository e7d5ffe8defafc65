import { TOKENS } from '../../src/composition/tokens';
import type { AppConfig } from '../../src/infrastructure/config/config';
import { holdKeyedCreate } from '../support/held-keyed-create';
import { LockHolder } from '../support/postgres-sessions';
import { failureBody, useHarness } from './suites/harness-per-suite';

/**
 * 409 through HTTP, on PostgreSQL, where it can be driven deterministically: another session
 * runs a keyed create's own statement for the key and leaves it uncommitted. The answer is
 * checked against the OpenAPI document like every other.
 */
describe('POST /article/create while a create with the same Idempotency-Key is still running', () => {
  const harness = useHarness('postgres');
  let holder: LockHolder;
  beforeAll(async () => {
    const config = harness().container.get<AppConfig>(TOKENS.Config);
    if (config.database.kind !== 'postgres') throw new Error('needs PostgreSQL');
    holder = await LockHolder.open(config.database.url);
  });
  afterAll(() => holder.close());

  it('answers 409 at once and writes nothing; once the first one rolled back, the retry creates', async () => {
    await holdKeyedCreate(holder, { key: 'running-key', fingerprint: 'fingerprint', expiredUpTo: new Date(0) });
    const create = () =>
      harness().http().post('/article/create').set('Idempotency-Key', 'running-key').send({ content: 'c' });
    try {
      const busy = await create();
      expect(busy.status).toBe(409);
      expect(busy.body).toEqual(
        failureBody('Idempotency-Key: a request with this key is still being processed; retry later'),
      );
    } finally {
      await holder.release();
    }
    const retried = await create();
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await harness().http().get('/article')).body.data).toEqual([retried.body.data]);
  });
});
