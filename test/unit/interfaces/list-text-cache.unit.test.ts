import { ListTextCache } from '../../../src/interfaces/http/list-text-cache';
import { wrappedListText } from '../../../src/interfaces/http/streamed-list';

/** Batches of item texts that end by returning `version`; counts how often it was closed. */
function batchesOf(items: string[][], version: string | undefined) {
  const seen = { closed: 0 };
  async function* batches(): AsyncGenerator<string[], string | undefined> {
    try {
      for (const batch of items) yield batch;
      return version;
    } finally {
      seen.closed++;
    }
  }
  return { batches: batches(), seen };
}

/**
 * Reads every batch through the cache; answers what was passed on and what it returned. A
 * query's first read is never kept (its length is not known yet): `primed` reads it once before.
 */
async function readThrough(
  cache: ListTextCache,
  query: string,
  items: string[][],
  version: string | undefined,
  primed = true,
) {
  if (primed) await readThrough(cache, query, items, 'priming', false);
  const { batches } = batchesOf(items, version);
  const passed: string[][] = [];
  const kept = cache.keeping(query, batches);
  for (;;) {
    const next = await kept.next();
    if (next.done) return { passed, returned: next.value };
    passed.push(next.value);
  }
}

const ITEMS = [['{"id":1}', '{"id":2}'], ['{"id":3}']];

describe('ListTextCache', () => {
  it('passes the batches on unchanged and keeps the whole answer under the version they returned', async () => {
    const cache = new ListTextCache(1_000);

    await expect(readThrough(cache, 'all', ITEMS, 'v1')).resolves.toEqual({ passed: ITEMS, returned: 'v1' });

    expect(cache.find('v1', 'all')?.toString()).toBe(wrappedListText(ITEMS.flat()));
    expect(cache.find('v1', 'all')?.toString()).toBe(
      '{"statusCode":10000,"data":[{"id":1},{"id":2},{"id":3}],"message":"Success"}',
    );
    expect(cache.find('v2', 'all')).toBeUndefined();
    expect(cache.find('v1', 'tagged')).toBeUndefined();
  });

  it("keeps nothing on a query's first read, nor after a read of it that was over the bound", async () => {
    const cache = new ListTextCache(1_000);
    await readThrough(cache, 'all', ITEMS, 'v1', false);
    expect(cache.find('v1', 'all')).toBeUndefined();

    const large = [['"x"'.repeat(400)]];
    await readThrough(cache, 'large', large, 'v1', false);
    // Over the bound last time: this read is not copied, even though it now fits.
    await readThrough(cache, 'large', ITEMS, 'v2', false);
    expect(cache.find('v2', 'large')).toBeUndefined();
    // The read above fitted: the next one is kept.
    await readThrough(cache, 'large', ITEMS, 'v3', false);
    expect(cache.find('v3', 'large')?.toString()).toBe(wrappedListText(ITEMS.flat()));
  });

  it('keeps an empty list too', async () => {
    const cache = new ListTextCache(1_000);
    await readThrough(cache, 'all', [], 'v1');
    expect(cache.find('v1', 'all')?.toString()).toBe('{"statusCode":10000,"data":[],"message":"Success"}');
  });

  it('keeps nothing when the batches return no version (more than one stream read them)', async () => {
    const cache = new ListTextCache(1_000);
    await readThrough(cache, 'all', ITEMS, undefined);
    expect(cache.find('undefined', 'all')).toBeUndefined();
  });

  it('keeps nothing larger than its bound, and still passes every batch on', async () => {
    const body = wrappedListText(ITEMS.flat());
    const cache = new ListTextCache(Buffer.byteLength(body) - 1);
    await expect(readThrough(cache, 'all', ITEMS, 'v1')).resolves.toEqual({ passed: ITEMS, returned: 'v1' });
    expect(cache.find('v1', 'all')).toBeUndefined();

    const exact = new ListTextCache(Buffer.byteLength(body));
    await readThrough(exact, 'all', ITEMS, 'v1');
    expect(exact.find('v1', 'all')?.toString()).toBe(body);
  });

  it('counts bytes, not characters', async () => {
    const items = [['"ééé"']];
    const body = wrappedListText(items.flat());
    const cache = new ListTextCache(body.length);
    await readThrough(cache, 'all', items, 'v1');
    expect(cache.find('v1', 'all')).toBeUndefined();
  });

  it('lets the least recently used answers go first when a new one does not fit', async () => {
    const size = Buffer.byteLength(wrappedListText(ITEMS.flat()));
    const cache = new ListTextCache(size * 2);
    await readThrough(cache, 'a', ITEMS, 'v1');
    await readThrough(cache, 'b', ITEMS, 'v1');
    // `a` was used since `b` was kept: `b` is the one to go.
    expect(cache.find('v1', 'a')).toBeDefined();
    await readThrough(cache, 'c', ITEMS, 'v1');

    expect(cache.find('v1', 'a')).toBeDefined();
    expect(cache.find('v1', 'b')).toBeUndefined();
    expect(cache.find('v1', 'c')).toBeDefined();
  });

  it('closes the batches it reads when its reader stops early, and keeps nothing then', async () => {
    const cache = new ListTextCache(1_000);
    await readThrough(cache, 'all', ITEMS, 'v0');
    const { batches, seen } = batchesOf(ITEMS, 'v1');
    const kept = cache.keeping('all', batches);
    await kept.next();
    await kept.return(undefined);

    expect(seen.closed).toBe(1);
    expect(cache.find('v1', 'all')).toBeUndefined();
  });
});
