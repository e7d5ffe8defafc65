import http from 'node:http';
import type { PreparedDataset } from './dataset';

/** What readFullList checks of each listed article. */
interface ListedArticle {
  id: number;
  status?: unknown;
  publishedAt?: unknown;
  slug?: unknown;
}

/** One full `GET /article` (no limit), timed from the request. */
export interface FullListFigures {
  /** Until the status line and headers arrived. */
  headersMs: number;
  /** Until the first byte of the body arrived. */
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  articles: number;
}

/** One `GET /article` as it arrived: status, times from the request, and the body as text. */
export interface TimedAnswer {
  status: number;
  headersMs: number;
  firstByteMs: number;
  totalMs: number;
  text: string;
}

/** Sends `GET /article` (no limit) and times its answer, whatever its status; no answer within `timeoutMs` throws. */
export function timedWholeList(baseUrl: string, timeoutMs: number): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    const request = http.get(`${baseUrl}/article`, (response) => {
      const headersMs = since();
      let firstByteMs = Number.NaN;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (chunks.length === 0) firstByteMs = since();
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headersMs, firstByteMs, totalMs: since(), text });
      });
    });
    request.setTimeout(timeoutMs, () =>
      request.destroy(new Error(`GET /article: no answer within ${timeoutMs / 1000} s`)),
    );
    request.on('error', reject);
  });
}

/**
 * Reads the whole list and checks it: the success wrapper, parseable JSON, exactly the
 * dataset's visible articles, in ascending id order, each published with a slug (unless
 * `publishingFields` is false: a build from before publishing, compared). Any other answer throws.
 */
export async function readFullList(
  baseUrl: string,
  dataset: PreparedDataset,
  publishingFields = true,
): Promise<FullListFigures> {
  const { status, headersMs, firstByteMs, totalMs, text } = await timedWholeList(baseUrl, 300_000);
  if (status !== 200) throw new Error(`answered ${status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { statusCode: number; data: ListedArticle[] };
  if (body.statusCode !== 10000 || !Array.isArray(body.data)) throw new Error('not the success wrapper');
  if (body.data.length !== dataset.visible)
    throw new Error(`${body.data.length} articles, expected the ${dataset.visible} visible ones`);
  for (let index = 0; index < body.data.length; index++) {
    const article = body.data[index] as ListedArticle;
    if (index > 0 && article.id <= (body.data[index - 1] as ListedArticle).id)
      throw new Error(`ids not ascending at position ${index}`);
    if (
      publishingFields &&
      (article.status !== 'published' || typeof article.publishedAt !== 'string' || !article.slug)
    )
      throw new Error(
        `article ${article.id}: status ${article.status}, publishedAt ${article.publishedAt}, slug ${article.slug}`,
      );
  }
  return { headersMs, firstByteMs, totalMs, bytes: Buffer.byteLength(text), articles: body.data.length };
}
