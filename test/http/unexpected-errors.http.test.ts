import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { type ArticleRepository, STREAM_CHUNK_SIZE } from '../../src/application';
import type { Article } from '../../src/domain';
import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { appOnRepository } from '../support/app-on-repository';
import { aNewArticle } from '../support/builders';
import { capturedLogger } from '../support/captured-logger';

/** A real repository whose reads fail the way a bug or a driver surprise would. */
class BrokenReadsRepository extends InMemoryArticleRepository {
  override async listVisible(): Promise<never> {
    throw new Error('relation "articles" does not exist at character 15 (password=hunter2)');
  }
  // biome-ignore lint/correctness/useYield: it fails before its first chunk, as a broken statement would.
  override async *streamVisible(): AsyncGenerator<never> {
    throw new Error('relation "articles" does not exist at character 15 (password=hunter2)');
  }
  override async findById(): Promise<never> {
    throw new TypeError("Cannot read properties of undefined (reading 'rows')");
  }
}

/** Streams the first chunk of the list, then fails the way a dropped database connection would. */
class FailsAfterFirstChunkRepository extends InMemoryArticleRepository {
  override async *streamVisible(
    ...args: Parameters<InMemoryArticleRepository['streamVisible']>
  ): AsyncGenerator<Article[], undefined> {
    for await (const chunk of super.streamVisible(...args)) {
      yield chunk;
      throw new Error('Connection terminated unexpectedly');
    }
  }
}

const appOn = (repository: ArticleRepository, logger = capturedLogger().logger) =>
  appOnRepository(repository, { logger });

describe('anything unexpected', () => {
  it('is a 500 saying only "Internal error", logged once with its cause and request id', async () => {
    const { logger, lines } = capturedLogger();
    const app = appOn(new BrokenReadsRepository(), logger);

    const response = await request(app).get('/article').set('X-Request-Id', 'req-500');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ statusCode: 10001, data: null, message: 'Internal error' });
    expect(JSON.stringify(response.body)).not.toMatch(/relation|hunter2/);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        requestId: 'req-500',
        method: 'GET',
        path: '/article',
        status: 500,
        err: expect.objectContaining({ type: 'Error', message: expect.stringContaining('relation "articles"') }),
      }),
    ]);

    const other = await request(app).get('/article/1');
    expect(other.status).toBe(500);
    expect(other.body.message).toBe('Internal error');
  });

  it('does not disturb what works: writes still succeed', async () => {
    const app = appOn(new BrokenReadsRepository());
    const response = await request(app).post('/article/create').send({ content: 'fine' });
    expect(response.status).toBe(201);
  });

  it('applies the configured body limit', async () => {
    const app = appOn(new InMemoryArticleRepository());
    const response = await request(app)
      .post('/article/create')
      .send({ content: 'x'.repeat(1100) });
    expect(response.status).toBe(413);
    expect(response.body.message).toBe('body: larger than the limit of 1024 bytes');
  });

  it('a failure after the first byte of the streamed list cuts the connection and is logged', async () => {
    const repository = new FailsAfterFirstChunkRepository();
    for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
    const { logger, lines } = capturedLogger();
    const server = http.createServer(appOn(repository, logger));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const received = await new Promise<{ status?: number; text: string; complete: boolean }>((resolve) => {
        let text = '';
        http
          .get({ host: '127.0.0.1', port, path: '/article', agent: false }, (response) => {
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode, text, complete: response.complete }));
            response.on('error', () => resolve({ status: response.statusCode, text, complete: false }));
          })
          // The cut may come before any byte reached the client: a hang-up, and no list at all.
          .on('error', () => resolve({ text, complete: false }));
      });
      expect(received.complete).toBe(false);
      expect(() => JSON.parse(received.text)).toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          path: '/article',
          err: expect.objectContaining({ message: 'Connection terminated unexpectedly' }),
        }),
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
