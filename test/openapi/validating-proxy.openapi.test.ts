import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { type GeneratedRequest, mutatedRequests, validRequests } from '../support/openapi/generated-requests';
import { type PrismViolation, type RunningPrism, startPrismProxy } from '../support/prism-proxy';
import { propertySeed } from '../support/property-seed';
import { type RunningService, startService, stopService } from '../support/service-process';

/** The same corpus on every run; PROPERTY_SEED draws another (a failure prints the seed). */
const SEED = propertySeed(26);
const RUNS = 500;
const API_TOKEN = 'proxy-test-token';
/** Prism never answers a request whose JSON body does not parse: such a request fails, naming itself. */
const REQUEST_TIMEOUT_MS = 5_000;

interface Exchange {
  request: GeneratedRequest;
  status: number;
  violations: PrismViolation[];
}

/**
 * Issue 26: Stoplight Prism, a validating proxy, in front of the built service sees no request
 * or response violation on a corpus generated from the service's own OpenAPI document. Valid
 * requests: neither. Invalid ones: Prism flags the request, the service refuses it (4xx), and
 * the refusal itself matches the document.
 */
describe('the service behind a validating proxy (Prism)', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-prism-'));
  let service: RunningService;
  let prism: RunningPrism;
  let document: unknown;
  let exampleId: string;

  beforeAll(async () => {
    // SEED_ENABLED and API_TOKEN so that /seed/create and the bearer token are in the document.
    service = await startService({ DATABASE_URL: 'memory:', SEED_ENABLED: 'true', API_TOKEN }, workDir);
    const served = await fetch(`${service.baseUrl}/openapi.json`);
    document = await served.json();
    const documentFile = path.join(workDir, 'openapi.json');
    fs.writeFileSync(documentFile, JSON.stringify(document));
    exampleId = articleIdExample(document);
    prism = await startPrismProxy(documentFile, service.baseUrl);
  });

  afterAll(async () => {
    await prism?.stop();
    if (service) await stopService(service);
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('sees no violation in valid requests or in their answers', async () => {
    const exchanges = await sendAll(fc.sample(validRequests(document), { numRuns: RUNS, seed: SEED }));
    const flagged = exchanges.filter((exchange) => exchange.violations.length > 0);
    expect({ seed: SEED, flagged: flagged.length, first: flagged.slice(0, 3) }).toEqual({
      seed: SEED,
      flagged: 0,
      first: [],
    });
  });

  it('sees invalid requests flagged and refused, and the refusals within the document', async () => {
    const exchanges = await sendAll(fc.sample(mutatedRequests(document), { numRuns: RUNS, seed: SEED }));
    const wrong = exchanges.filter(
      ({ status, violations }) =>
        violations.some((violation) => violation.side === 'response') ||
        !violations.some((violation) => violation.side === 'request') ||
        status < 400 ||
        status >= 500,
    );
    expect({ seed: SEED, wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ seed: SEED, wrong: 0, first: [] });
  });

  it('kept Prism to the loopback interface', () => {
    expect(prism.offLoopbackAttempts()).toEqual([]);
  });

  /** One at a time, in order: the corpus and the store's state are the same on every run. */
  async function sendAll(requests: GeneratedRequest[]): Promise<Exchange[]> {
    const exchanges: Exchange[] = [];
    for (const request of requests) exchanges.push(await send(request));
    return exchanges;
  }

  async function send(generated: GeneratedRequest): Promise<Exchange> {
    const request = await withLiveValues(generated);
    try {
      const response = await fetch(`${prism.baseUrl}${request.path}`, {
        method: request.method.toUpperCase(),
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      // Read to the end: the exchange is over, and Prism has checked the whole answer.
      await response.arrayBuffer();
      return { request: generated, status: response.status, violations: prism.violations(response) };
    } catch (error) {
      throw new Error(`seed ${SEED}: no answer through Prism to ${JSON.stringify(request)}`, { cause: error });
    }
  }

  /**
   * The generator knows no token and no article that exists: it writes `Bearer <anything>` and
   * the document's examples, which name article 1 (`/article/1`, `{"id": 1}`, `If-Match: "1-3"`).
   * Each request naming the example article gets an article of its own, created straight at
   * the service (a delete takes it away), and its entity tag for the example's.
   */
  async function withLiveValues(request: GeneratedRequest): Promise<GeneratedRequest> {
    const headers = { ...request.headers };
    if (headers.authorization?.startsWith('Bearer ')) headers.authorization = `Bearer ${API_TOKEN}`;
    const inPath = new RegExp(`^/article/${exampleId}(?=$|\\?)`);
    const body = request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
    const inBody = isObject(body) && body.id === Number(exampleId);
    if (!inPath.test(request.path) && !inBody) return { ...request, headers };
    const article = await createArticle();
    const exampleTag = new RegExp(`"${exampleId}-[0-9]+"`, 'g');
    for (const name of ['if-match', 'if-none-match']) {
      const header = Object.keys(headers).find((key) => key.toLowerCase() === name);
      if (header) headers[header] = (headers[header] as string).replace(exampleTag, article.etag);
    }
    return {
      ...request,
      headers,
      path: request.path.replace(inPath, `/article/${article.id}`),
      ...(inBody ? { body: JSON.stringify({ ...body, id: article.id }) } : {}),
    };
  }

  async function createArticle(): Promise<{ id: number; etag: string }> {
    const created = await fetch(`${service.baseUrl}/article/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_TOKEN}` },
      body: JSON.stringify({ title: 'Behind the proxy', content: 'An article the corpus reads and changes' }),
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { data: { id: number } }).data;
    return { id, etag: created.headers.get('etag') as string };
  }
});

/** The example of the article id in `GET /article/{id}`: what the generator writes for any id. */
function articleIdExample(document: unknown): string {
  const operation = (document as { paths: Record<string, { get: { parameters: Array<Record<string, unknown>> } }> })
    .paths['/article/{id}']?.get;
  const parameter = operation?.parameters.find((candidate) => candidate.in === 'path' && candidate.name === 'id');
  const example = (parameter?.schema as { example?: unknown } | undefined)?.example;
  if (example === undefined) throw new Error('GET /article/{id} documents no example id');
  return String(example);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
