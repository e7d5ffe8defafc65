import request from 'supertest';
import type { ArticleRepository } from '../../src/application';
import {
  CheckReadiness,
  CreateArticle,
  DeleteArticle,
  GetArticle,
  ListCategories,
  ListTags,
  ListVisibleArticles,
  SeedArticles,
  UpdateArticle,
} from '../../src/application';
import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { createHttpApp } from '../../src/interfaces/http/app';
import { ArticleController } from '../../src/interfaces/http/controllers/article-controller';
import { HealthController } from '../../src/interfaces/http/controllers/health-controller';
import { SeedController } from '../../src/interfaces/http/controllers/seed-controller';
import { TermController } from '../../src/interfaces/http/controllers/term-controller';
import { UserController } from '../../src/interfaces/user-demo/user-controller';
import { capturedLogger } from '../support/captured-logger';

/** A real repository whose reads fail the way a bug or a driver surprise would. */
class BrokenReadsRepository extends InMemoryArticleRepository {
  override async listVisible(): Promise<never> {
    throw new Error('relation "articles" does not exist at character 15 (password=hunter2)');
  }
  override async findById(): Promise<never> {
    throw new TypeError("Cannot read properties of undefined (reading 'rows')");
  }
}

function appOn(repository: ArticleRepository, logger = capturedLogger().logger) {
  const clock = { now: () => new Date() };
  const create = new CreateArticle(repository, clock);
  const list = new ListVisibleArticles(repository);
  return createHttpApp(
    {
      articles: new ArticleController(
        create,
        new UpdateArticle(repository, clock),
        new DeleteArticle(repository),
        list,
        new GetArticle(repository),
      ),
      seed: new SeedController(new SeedArticles(create, list)),
      terms: new TermController(new ListTags(repository), new ListCategories(repository)),
      health: new HealthController(new CheckReadiness({ ping: async () => {} }, 1000)),
      users: new UserController(),
    },
    {
      apiToken: null,
      bodyLimitBytes: 1024,
      logger,
      corsOrigin: null,
      rateLimitPerMinute: null,
      trustProxyHops: 0,
      seedEnabled: true,
      isShuttingDown: () => false,
    },
  );
}

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
});
