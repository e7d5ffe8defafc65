import http from 'node:http';
import type { PreparedDataset } from './dataset';

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

/**
 * Reads the whole list and checks it: the success wrapper, parseable JSON, exactly the
 * dataset's visible articles, in ascending id order. Any other answer throws.
 */
export function readFullList(baseUrl: string, dataset: PreparedDataset): Promise<FullListFigures> {
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
        const totalMs = since();
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${text.slice(0, 300)}`);
          const body = JSON.parse(text) as { statusCode: number; data: { id: number }[] };
          if (body.statusCode !== 10000 || !Array.isArray(body.data)) throw new Error('not the success wrapper');
          if (body.data.length !== dataset.visible)
            throw new Error(`${body.data.length} articles, expected the ${dataset.visible} visible ones`);
          for (let index = 1; index < body.data.length; index++) {
            if ((body.data[index] as { id: number }).id <= (body.data[index - 1] as { id: number }).id)
              throw new Error(`ids not ascending at position ${index}`);
          }
          resolve({ headersMs, firstByteMs, totalMs, bytes: Buffer.byteLength(text), articles: body.data.length });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.setTimeout(300_000, () => request.destroy(new Error('GET /article: no answer within 300 s')));
    request.on('error', reject);
  });
}
