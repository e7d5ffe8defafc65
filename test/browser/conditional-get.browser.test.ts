import { useServiceInChromium } from '../support/chromium';

/**
 * A page polling an article with fetch and a manual If-None-Match, in each cache mode that goes
 * to the server: Chromium sends `Cache-Control: max-age=0` in the default and `no-cache` modes,
 * and `no-cache` (with `Pragma: no-cache`) in the `no-store` and `reload` modes. Each gets its 304.
 */
describe('conditional GET from a page in headless Chromium', () => {
  const subject = useServiceInChromium();

  it("gets 304 for the current ETag and 200 for a stale one, in each of fetch's cache modes", async () => {
    const created = await fetch(`${subject.service.baseUrl}/article/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'polled' }),
    });
    expect(created.status).toBe(201);
    const etag = created.headers.get('etag') as string;
    const { id } = ((await created.json()) as { data: { id: number } }).data;

    const page = await subject.browser.newPage();
    // A page of the service's own origin, so that the page's fetch needs no CORS.
    await page.goto(`${subject.service.baseUrl}/health`);
    const answers = await page.evaluate(
      async ({ url, current }) => {
        // Runs in the page; the project's types (no DOM lib) leave `cache` out of RequestInit.
        const ask = async (cache: string, ifNoneMatch: string) => {
          const init = { cache, headers: { 'If-None-Match': ifNoneMatch } } as RequestInit;
          const response = await fetch(url, init);
          return { cache, ifNoneMatch, status: response.status, length: (await response.text()).length };
        };
        const answers = [];
        for (const cache of ['default', 'no-cache', 'no-store', 'reload']) {
          answers.push(await ask(cache, current), await ask(cache, `W/${current}`), await ask(cache, '"1-999"'));
        }
        return answers;
      },
      { url: `/article/${id}`, current: etag },
    );
    expect(answers).toEqual(
      ['default', 'no-cache', 'no-store', 'reload'].flatMap((cache) => [
        { cache, ifNoneMatch: etag, status: 304, length: 0 },
        { cache, ifNoneMatch: `W/${etag}`, status: 304, length: 0 },
        { cache, ifNoneMatch: '"1-999"', status: 200, length: expect.any(Number) },
      ]),
    );
    expect(answers.every((answer) => answer.status === 304 || answer.length > 0)).toBe(true);
    await page.close();
  });
});
