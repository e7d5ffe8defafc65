import type { HttpHarness, StorageKind } from '../../support/http-harness';
import { failureBody, useHarness } from './harness-per-suite';

const REUSED = 'Idempotency-Key: was already used for another request; use a new key for a new article';

export function idempotentCreatesSuite(kind: StorageKind): void {
  describe('POST /article/create with Idempotency-Key', () => {
    const harness = useHarness(kind);
    const create = (body: object, key?: string) => createOn(harness, body, key);
    const list = () => listOn(harness);

    it('answers a retry with the stored article, 201 and Idempotent-Replayed: true, and writes nothing', async () => {
      const body = { title: 'once', content: 'c', tag: [{ name: 'TS', description: 'TypeScript' }] };
      const first = await create(body, 'key-1');
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const retry = await create(body, 'key-1');
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.headers.etag).toBe(first.headers.etag);
      expect(retry.body).toEqual(first.body);
      expect(await list()).toHaveLength(1);
    });

    it('counts the same JSON value as the same body, whatever the order of its keys', async () => {
      const first = await create({ title: 't', content: 'c', tag: [{ name: 'x', description: 'd' }] }, 'order');
      const retry = await create({ tag: [{ description: 'd', name: 'x' }], content: 'c', title: 't' }, 'order');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.data).toEqual(first.body.data);
    });

    it('answers 422 to another body under a used key, and writes nothing', async () => {
      await create({ content: 'first' }, 'key-2').expect(201);
      const other = await create({ content: 'second', tag: [{ name: 'new tag' }] }, 'key-2');

      expect(other.status).toBe(422);
      expect(other.body).toEqual(failureBody(REUSED));
      expect(await list()).toHaveLength(1);
      expect((await harness().http().get('/tag')).body.data).toEqual([]);
    });

    it('answers the stored article even after the article changed', async () => {
      const first = await create({ title: 'as created', content: 'c' }, 'key-3');
      await harness().http().post('/article/update').send({ id: first.body.data.id, title: 'changed' }).expect(200);
      const retry = await create({ title: 'as created', content: 'c' }, 'key-3');
      expect(retry.body.data).toEqual(first.body.data);
    });

    it('stores nothing for a create that fails: a retry with the same key creates once', async () => {
      const failed = await create({ content: 'c', tag: [{ id: 'no-such-tag' }] }, 'key-4');
      expect(failed.status).toBe(400);
      const created = await create({ content: 'c' }, 'key-4');
      const replayed = await create({ content: 'c' }, 'key-4');
      expect([created.status, replayed.status]).toEqual([201, 201]);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(await list()).toHaveLength(1);
    });

    it('makes one article of 20 concurrent creates under one key: each answer a 201 with it, or a 409', async () => {
      const body = { title: 'raced', content: 'c', tag: [{ name: 'shared' }] };
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(body, 'race')));

      const articles = await list();
      expect(articles).toHaveLength(1);
      for (const answer of answers) {
        if (answer.status === 409) {
          expect(answer.body).toEqual(
            failureBody('Idempotency-Key: a request with this key is still being processed; retry later'),
          );
          continue;
        }
        expect(answer.status).toBe(201);
        expect(answer.body.data.id).toBe(articles[0]?.id);
      }
      expect(answers.filter((answer) => answer.status === 201 && !answer.headers['idempotent-replayed'])).toHaveLength(
        1,
      );
    });

    it('creates as before without the header', async () => {
      await create({ content: 'c' }).expect(201);
      await create({ content: 'c' }).expect(201);
      expect(await list()).toHaveLength(2);
    });

    it.each([
      ['an empty key', ''],
      ['a key of 256 characters', 'k'.repeat(256)],
      ['a space', 'a b'],
      ['a non-ASCII character', 'clé'],
      ['a tab', 'a\tb'],
    ])('rejects %s with 400 naming Idempotency-Key, and writes nothing', async (_, key) => {
      const response = await create({ content: 'c' }, key);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('Idempotency-Key: must be 1 to 255 visible ASCII characters (! to ~)'));
      expect(await list()).toHaveLength(0);
    });

    it('accepts a key of 255 visible characters, ! to ~', async () => {
      const key = `!~${'x'.repeat(253)}`;
      await create({ content: 'c' }, key).expect(201);
      const retry = await create({ content: 'c' }, key).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
    });

    describe('past the retention', () => {
      // The harness clock moves 1 s per reading: a retention of 10 s expires a key within a few requests.
      const shortLived = useHarness(kind, { idempotencyKeyRetentionMs: 10_000 });

      it('processes a key anew once it is older than the retention', async () => {
        const first = await createOn(shortLived, { content: 'c' }, 'key-5');
        const replayed = await createOn(shortLived, { content: 'c' }, 'key-5');
        expect(replayed.headers['idempotent-replayed']).toBe('true');
        // Each create reads the clock once: 10 more and the key is older than 10 s.
        for (let n = 0; n < 10; n++) await createOn(shortLived, { content: `filler ${n}` }).expect(201);
        const anew = await createOn(shortLived, { content: 'c' }, 'key-5');
        expect(anew.status).toBe(201);
        expect(anew.headers['idempotent-replayed']).toBeUndefined();
        expect(anew.body.data.id).not.toBe(first.body.data.id);
      });
    });
  });
}

function createOn(harness: () => HttpHarness, body: object, key?: string) {
  const call = harness().http().post('/article/create');
  return (key === undefined ? call : call.set('Idempotency-Key', key)).send(body);
}

async function listOn(harness: () => HttpHarness): Promise<Array<{ id: number }>> {
  return (await harness().http().get('/article')).body.data;
}
