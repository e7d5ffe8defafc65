import request from 'supertest';
import { ServiceLifecycle } from '../../src/application';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { type AppConfig, loadConfig } from '../../src/infrastructure/config/config';
import { capturedLogger } from '../support/captured-logger';
import { openHttpHarness } from '../support/http-harness';
import { failureBody } from './suites/harness-per-suite';

const wrapped = (data: unknown) => ({ statusCode: 10000, data, message: 'Success' });

/** The real composition root on the memory store, its log lines captured. */
async function appWith(config: Partial<AppConfig> = {}) {
  const { logger, lines } = capturedLogger();
  const container = await buildContainer({ ...loadConfig({}), database: { kind: 'memory' }, ...config }, { logger });
  return { app: createApp(container), container, lines };
}

describe('GET /health, GET /ready and GET /ready/write', () => {
  it('answer 200 in the wrapper, without the token that writes need', async () => {
    const { app } = await appWith({ apiToken: 'secret' });
    expect((await request(app).get('/health').expect(200)).body).toEqual(wrapped({ status: 'ok' }));
    for (const path of ['/ready', '/ready/write']) {
      expect((await request(app).get(path).expect(200)).body).toEqual(
        wrapped({ status: 'ready', writes: 'available' }),
      );
    }
  });

  it('/ready turns 503 once shutdown begins, /health stays 200, and answers close their connection', async () => {
    const { app, container } = await appWith();
    container.get(ServiceLifecycle).beginShutdown();

    for (const path of ['/ready', '/ready/write']) {
      const ready = await request(app).get(path);
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toBe('1');
      expect(ready.body).toEqual(failureBody('not ready: the service is shutting down'));
    }
    const health = await request(app).get('/health').expect(200);
    expect(health.headers.connection).toBe('close');
  });

  it('/ready is 503 when the storage does not answer (SQLite closed under the app)', async () => {
    const harness = await openHttpHarness('sqlite');
    try {
      await request(harness.app).get('/ready').expect(200);
      await closeContainer(harness.container);
      const response = await request(harness.app).get('/ready');
      expect(response.status).toBe(503);
      expect(response.body).toEqual(failureBody('not ready: storage is unreachable'));
      await request(harness.app).get('/health').expect(200);
    } finally {
      await harness.close();
    }
  });
});

describe('request ids and log lines', () => {
  it('echoes a sane X-Request-Id and logs one line per request with method, path, status, duration and id', async () => {
    const { app, lines } = await appWith();
    const response = await request(app).get('/article?page=2').set('X-Request-Id', 'client-42');
    expect(response.headers['x-request-id']).toBe('client-42');
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        service: 'blog-article-api',
        requestId: 'client-42',
        method: 'GET',
        path: '/article',
        status: 200,
        durationMs: expect.any(Number),
        msg: 'GET /article 200',
      },
    ]);
  });

  it('makes up a request id when none or an unusable one is sent', async () => {
    const { app, lines } = await appWith();
    const first = await request(app).get('/health');
    const second = await request(app).get('/health').set('X-Request-Id', 'bad id with spaces');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(first.headers['x-request-id']).toMatch(uuid);
    expect(second.headers['x-request-id']).toMatch(uuid);
    expect(lines.map((line) => line.requestId)).toEqual([
      first.headers['x-request-id'],
      second.headers['x-request-id'],
    ]);
  });

  it('never logs a token, a body or a query string', async () => {
    const { app, lines } = await appWith({ apiToken: 'token-that-must-not-leak' });
    await request(app)
      .post('/article/create?password=query-secret')
      .set('Authorization', 'Bearer token-that-must-not-leak')
      .send({ content: 'body-that-must-not-leak' })
      .expect(201);
    await request(app).post('/article/create').set('Authorization', 'Bearer wrong-token-guess').send({});
    expect(lines.map((line) => line.status)).toEqual([201, 401]);
    const logged = JSON.stringify(lines);
    for (const secret of ['token-that-must-not-leak', 'wrong-token-guess', 'body-that-must-not-leak', 'query-secret']) {
      expect(logged).not.toContain(secret);
    }
  });
});

describe('GET /metrics', () => {
  it('counts and times requests by route pattern and status, beside the process metrics', async () => {
    const { app } = await appWith();
    await request(app).get('/article/1');
    await request(app).get('/article/2');
    await request(app).get('/article/x');
    await request(app).get('/no/such/path');
    await request(app).get('/user/list');

    const response = await request(app).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.text;
    expect(text).toContain('http_requests_total{method="GET",route="/article/:id",status_code="200"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="/article/:id",status_code="400"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status_code="404"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/user/list",status_code="200"} 1');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/article\/:id"/);
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/article/:id",status_code="200"} 2',
    );
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).not.toContain('/no/such/path');
  });
});

describe('security headers', () => {
  it.each(['/article', '/docs/', '/no-route'])('%s has helmet headers and no X-Powered-By', async (path) => {
    const { app } = await appWith();
    const response = await request(app).get(path);
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('CORS', () => {
  it('is off by default: no Access-Control headers, and a preflight is an unknown route', async () => {
    const { app } = await appWith();
    const response = await request(app).get('/article').set('Origin', 'https://a.example');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(app).options('/article/create').set('Origin', 'https://a.example');
    expect(preflight.status).toBe(404);
  });

  it('allows the configured origins only, and answers their preflight', async () => {
    const { app } = await appWith({ corsOrigin: ['https://a.example'] });
    const allowed = await request(app).get('/article').set('Origin', 'https://a.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://a.example');
    expect(allowed.headers['access-control-expose-headers']).toContain('X-Request-Id');
    expect(allowed.headers['access-control-expose-headers']).toContain('Idempotent-Replayed');
    // What a browser client needs to revalidate, write conditionally, page and follow a slug's move.
    for (const header of ['ETag', 'Link', 'Location']) {
      expect(allowed.headers['access-control-expose-headers']).toContain(header);
    }
    const other = await request(app).get('/article').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await request(app)
      .options('/article/create')
      .set('Origin', 'https://a.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe(
      'Content-Type,Authorization,X-Request-Id,Idempotency-Key,If-Match,If-None-Match',
    );
  });

  it('allows any origin with *', async () => {
    const { app } = await appWith({ corsOrigin: '*' });
    const response = await request(app).get('/tag').set('Origin', 'https://anywhere.example');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('rate limiting', () => {
  it('answers 429 in the wrapper past RATE_LIMIT_PER_MINUTE, and leaves the probes and metrics alone', async () => {
    const { app } = await appWith({ rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) await request(app).get('/article').expect(200);

    const limited = await request(app).get('/article/1');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(failureBody(/^Too many requests: at most 3 a minute; retry after \d+ s$/));
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.headers['ratelimit-policy']).toContain('q=3');
    await request(app).post('/user/add').expect(429);

    for (const path of ['/health', '/ready', '/metrics', '/openapi.json']) await request(app).get(path).expect(200);
  });

  it('is off unless configured', async () => {
    const { app } = await appWith();
    for (let i = 0; i < 30; i++) await request(app).get('/tag').expect(200);
  });
});

describe('SEED_ENABLED', () => {
  it('false: GET /seed/create is an unknown route and writes nothing', async () => {
    const { app } = await appWith({ seedEnabled: false });
    const response = await request(app).get('/seed/create');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(failureBody('No route for GET /seed/create'));
    expect((await request(app).get('/article')).body.data).toEqual([]);
  });

  it('true (the default): the seed runs', async () => {
    const { app } = await appWith();
    expect((await request(app).get('/seed/create').expect(200)).body.data).toHaveLength(3);
  });
});

describe('GET /docs', () => {
  it('redirects to /docs/, whose page and scripts come from this server, not a CDN', async () => {
    const { app } = await appWith();
    const redirect = await request(app).get('/docs');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/docs/');

    const page = await request(app).get('/docs/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<div id="swagger-ui">');
    expect(page.text).not.toMatch(/(src|href)=["']?https?:/);
    const bundle = await request(app).get('/docs/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    const init = await request(app).get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toContain('/openapi.json');
  });
});
