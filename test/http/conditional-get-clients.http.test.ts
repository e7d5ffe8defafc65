import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type ListeningHarness, openListeningHarness } from '../support/listening-harness';
import { jsonOf } from '../support/raw-http';

const run = promisify(execFile);

/**
 * A conditional GET as real clients send it, to a listening service: Node's fetch adds
 * `Cache-Control: no-cache` to a request with a manual If-None-Match (the Fetch standard's
 * "no-store" mode), and curl sends what it is told. Each must get its 304.
 */
describe('conditional GET from real clients', () => {
  let api: ListeningHarness;
  let url: string;
  let etag: string;

  beforeAll(async () => {
    api = await openListeningHarness('memory');
    const created = await api.http.postJson('/article/create', { content: 'conditional' });
    const id = (jsonOf(created) as { data: { id: number } }).data.id;
    url = `${api.baseUrl}/article/${id}`;
    etag = String(created.kind === 'answered' && created.headers.etag);
  });
  afterAll(async () => {
    await api.close();
  });

  it("Node's fetch with If-None-Match gets 304 while the tag is current, and 200 otherwise, in every cache mode", async () => {
    for (const cache of ['default', 'no-cache', 'no-store', 'reload', 'force-cache']) {
      // Node's fetch takes `cache` (the Fetch standard's modes), though its RequestInit type leaves it out.
      const ask = (ifNoneMatch: string) =>
        fetch(url, { cache, headers: { 'If-None-Match': ifNoneMatch } } as RequestInit);
      const notModified = await ask(etag);
      expect({ cache, status: notModified.status }).toEqual({ cache, status: 304 });
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);

      const stale = await ask('"1-999"');
      expect({ cache, status: stale.status }).toEqual({ cache, status: 200 });
      expect(((await stale.json()) as { data: { content: string } }).data.content).toBe('conditional');
    }
  });

  it('curl with If-None-Match gets 304 while the tag is current, and 200 otherwise, whatever Cache-Control it sends', async () => {
    const statusOf = async (ifNoneMatch: string, extra: string[]) => {
      const format = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}'];
      const { stdout } = await run('curl', [...format, '-H', `If-None-Match: ${ifNoneMatch}`, ...extra, url]);
      return stdout;
    };
    const cacheControls = [
      [],
      ['-H', 'Cache-Control: no-cache', '-H', 'Pragma: no-cache'],
      ['-H', 'Cache-Control: max-age=0'],
    ];
    for (const extra of cacheControls) {
      expect({ extra, answer: await statusOf(etag, extra) }).toEqual({ extra, answer: '304 0' });
      expect({ extra, answer: await statusOf(`W/${etag}`, extra) }).toEqual({ extra, answer: '304 0' });
      expect(await statusOf('"1-999"', extra)).toMatch(/^200 [1-9][0-9]*$/);
    }
  });
});
