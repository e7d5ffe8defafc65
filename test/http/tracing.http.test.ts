import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver';
import { type RunningService, runServiceToExit, startService } from '../support/service-process';
import { createPostgresDatabase } from '../support/test-databases';

/**
 * The built service as a real process, exporting over OTLP/HTTP to a receiver of the test's
 * own: one create makes one trace, HTTP span > use-case span > one span per SQL statement, and
 * a client's W3C traceparent is continued. SIGTERM flushes the last spans before the exit, so
 * the test reads them after the process ended: nothing is timed.
 */
describe('OpenTelemetry traces of the service process', () => {
  let workDir: string;
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-tracing-'));
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** SIGTERM, exit 0, and every line it printed read (stdout closes after the exit event). */
  const stop = async (service: RunningService) => {
    const stdoutClosed = new Promise((resolve) => service.process.stdout?.once('close', resolve));
    service.process.kill('SIGTERM');
    await expect(service.exited).resolves.toBe(0);
    await stdoutClosed;
  };

  const content = `traced article ${'secret words '.repeat(3)}`;
  const create = (service: RunningService, headers: Record<string, string> = {}) =>
    fetch(`${service.baseUrl}/article/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ title: 'Traced', content, tag: [{ name: 'otel' }], category: [{ name: 'ops' }] }),
    });

  describe.each([
    ['SQLite', 'sqlite', async () => ({ url: `sqlite:${path.join(workDir, 'traced.sqlite')}`, drop: async () => {} })],
    ['PostgreSQL', 'postgresql', createPostgresDatabase],
  ])('on %s', (_name, system, openDatabase) => {
    it('continues the client traceparent through the HTTP, use-case and SQL spans, and logs the trace id', async () => {
      const database = await openDatabase();
      try {
        const clientTraceId = randomBytes(16).toString('hex');
        const clientSpanId = randomBytes(8).toString('hex');
        const service = await startService(
          { DATABASE_URL: database.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
          workDir,
        );
        try {
          // Probes are not traced: the only trace must be the create's.
          expect((await fetch(`${service.baseUrl}/ready`)).status).toBe(200);
          const response = await create(service, { traceparent: `00-${clientTraceId}-${clientSpanId}-01` });
          expect(response.status).toBe(201);
        } finally {
          await stop(service);
        }

        const spans = receiver.spans;
        expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([clientTraceId]));
        const [httpSpan, ...otherServerSpans] = spans.filter((span) => span.kind === 2);
        expect(otherServerSpans).toEqual([]);
        expect(httpSpan).toMatchObject({
          name: 'POST /article/create',
          parentSpanId: clientSpanId,
          attributes: { 'http.route': '/article/create', 'http.response.status_code': 201 },
          resource: { 'service.name': 'blog-article-api' },
        });

        const useCase = spans.filter((span) => span.name === 'CreateArticle.execute');
        expect(useCase).toHaveLength(1);
        expect(useCase[0]?.parentSpanId).toBe(httpSpan?.spanId);

        const statements = spans.filter((span) => span.kind === 3);
        expect(statements.length).toBeGreaterThan(0);
        for (const statement of statements) {
          expect(statement.name).toMatch(/^article_repository_\w+$/);
          expect(statement.parentSpanId).toBe(useCase[0]?.spanId);
          expect(statement.attributes).toEqual({ 'db.system.name': system, 'db.query.summary': statement.name });
        }
        expect(statements.map((span) => span.name)).toContain('article_repository_insert_article');
        // Nothing but these three levels, and no value of the request anywhere in the trace.
        expect(spans).toHaveLength(2 + statements.length);
        expect(JSON.stringify(spans)).not.toContain('secret words');

        const requestLine = logLineOf(service, 'POST /article/create 201');
        expect(requestLine).toMatchObject({ trace_id: clientTraceId, span_id: httpSpan?.spanId });
      } finally {
        await database.drop();
      }
    });
  });

  it('starts a trace of its own without a traceparent: the HTTP span is the root', async () => {
    const service = await startService(
      { DATABASE_URL: 'sqlite:root.sqlite', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces` },
      workDir,
    );
    try {
      expect((await create(service)).status).toBe(201);
    } finally {
      await stop(service);
    }
    const root = only(receiver.spans.filter((span) => span.kind === 2));
    expect(root).toMatchObject({ name: 'POST /article/create', parentSpanId: '' });
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set([root.traceId]));
    expect(only(receiver.spans.filter((span) => span.name === 'CreateArticle.execute')).parentSpanId).toBe(root.spanId);
  });

  it('with WORKERS=2, the workers trace and flush their spans on SIGTERM', async () => {
    const service = await startService(
      { DATABASE_URL: 'sqlite:workers.sqlite', WORKERS: '2', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      workDir,
    );
    const traceIds = Array.from({ length: 6 }, () => randomBytes(16).toString('hex'));
    try {
      for (const traceId of traceIds) {
        const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
        expect((await create(service, { traceparent })).status).toBe(201);
      }
    } finally {
      await stop(service);
    }
    const servers = receiver.spans.filter((span) => span.kind === 2);
    expect(servers.map((span) => span.traceId).sort()).toEqual([...traceIds].sort());
    for (const server of servers) {
      const useCase = only(receiver.spans.filter((span) => span.parentSpanId === server.spanId));
      expect(useCase.name).toBe('CreateArticle.execute');
    }
  });

  it('refuses an OTLP protocol it cannot speak, in one line, before serving', async () => {
    const result = await runServiceToExit(
      {
        DATABASE_URL: 'sqlite:refused.sqlite',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      },
      workDir,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Configuration error: OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http/protobuf (OTLP over HTTP)',
    );
  });

  it('exports nothing and logs no trace id when no OTLP endpoint is set', async () => {
    const service = await startService({ DATABASE_URL: 'sqlite:untraced.sqlite' }, workDir, { nodeArgs: PROBE });
    try {
      expect((await create(service, { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` })).status).toBe(201);
    } finally {
      await stop(service);
    }
    expect(receiver.requests).toBe(0);
    expect(logLineOf(service, 'POST /article/create 201')).not.toHaveProperty('trace_id');
    // Nothing of tracing runs: no SDK module loaded, node:http left as it is.
    expect(modulesProbeOf(service)).toEqual({
      probe: 'modules',
      opentelemetry: ['@opentelemetry/api', '@opentelemetry/semantic-conventions'],
      httpPatched: false,
    });
  });

  it('loads the SDK and patches node:http only when an endpoint is set', async () => {
    const service = await startService(
      { DATABASE_URL: 'sqlite:traced.sqlite', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      workDir,
      { nodeArgs: PROBE },
    );
    await stop(service);
    const probe = modulesProbeOf(service);
    expect(probe.opentelemetry).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/instrumentation-http']),
    );
    expect(probe.httpPatched).toBe(true);
  });
});

const PROBE = ['--require', path.join(__dirname, '..', 'support', 'loaded-modules-probe.cjs')];

function modulesProbeOf(service: RunningService): { opentelemetry?: string[]; httpPatched?: boolean } {
  return only(service.logLines.filter((line) => line.probe === 'modules'));
}

function logLineOf(service: RunningService, message: string): Record<string, unknown> {
  return only(service.logLines.filter((line) => line.msg === message));
}

function only<T>(items: T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}
