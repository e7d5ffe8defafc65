import fs from 'node:fs';
import path from 'node:path';
import { useServiceInChromium } from '../support/chromium';

/** Written on every run for a person to look at; git ignores the folder. */
const SCREENSHOT = path.resolve(__dirname, '../../test-artifacts/docs-page.png');

describe('the /docs page in headless Chromium', () => {
  const subject = useServiceInChromium();

  it('renders, lists every endpoint of /openapi.json, and a "try it" GET /article with q shows a 200', async () => {
    for (const title of ['Shown in the docs page', 'Left out by the search']) {
      const created = await fetch(`${subject.service.baseUrl}/article/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title, content: 'hello' }),
      });
      expect(created.status).toBe(201);
    }
    const document = (await (await fetch(`${subject.service.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([route, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${route}`),
    );

    const page = await subject.browser.newPage({ viewport: { width: 1280, height: 2400 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));

    await page.goto(`${subject.service.baseUrl}/docs`);
    expect(page.url()).toBe(`${subject.service.baseUrl}/docs/`);
    await page.locator('.opblock').first().waitFor();

    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (block) =>
          `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    expect([...listed].sort()).toEqual([...documented].sort());

    const listArticles = page.locator('#operations-Articles-listArticles');
    await listArticles.locator('.opblock-summary').click();
    await listArticles.getByRole('button', { name: 'Try it out' }).click();
    // Swagger UI fills each parameter with its documented example (an enum's in a select); keep
    // limit's (a page of 20) and order's, clear the filters, whose examples name nothing in this
    // fresh store, and search. A cursor, opaque, has no example to fill.
    await expect(listArticles.locator('tr[data-param-name="limit"] input').inputValue()).resolves.toBe('20');
    await expect(listArticles.locator('tr[data-param-name="q"] input').inputValue()).resolves.toBe('typescript');
    await expect(listArticles.locator('tr[data-param-name="order"] select').inputValue()).resolves.toBe('id');
    await expect(listArticles.locator('tr[data-param-name="cursor"] input').inputValue()).resolves.toBe('');
    for (const name of ['after', 'tag', 'category', 'author']) {
      await listArticles.locator(`tr[data-param-name="${name}"] input`).fill('');
    }
    await listArticles.locator('tr[data-param-name="featured"] select').selectOption('');
    await listArticles.locator('tr[data-param-name="q"] input').fill('DOCS page');
    await listArticles.getByRole('button', { name: 'Execute' }).click();
    const liveResponse = listArticles.locator('.live-responses-table .response');
    await liveResponse.first().waitFor();
    expect((await liveResponse.locator('.response-col_status').first().textContent())?.trim()).toBe('200');
    const answer = await liveResponse.locator('.response-col_description').first().textContent();
    expect(answer).toContain('Shown in the docs page');
    expect(answer).not.toContain('Left out by the search');
    await expect(listArticles.locator('.request-url').textContent()).resolves.toContain('q=DOCS%20page');

    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await listArticles.scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
  });
});
