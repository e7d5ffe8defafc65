import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { drainedOrClosed } from '../../src/interfaces/http/drained-or-closed';
import { ArticleStore, SlugTakenError, SlugTriesExhaustedError, UnknownTermError } from './article-store';
import { BadRequest, readJson, toChanges, toNewArticle } from './request-body';

/**
 * The raw baseline of the benchmark: the service's article endpoints and JSON with plain
 * node:http and pg, on the same database and schema. It answers what the service answers for
 * valid requests and is the reference for how fast this machine can serve them.
 * Env: PORT, DATABASE_URL (PostgreSQL, already migrated by the service), API_TOKEN, and
 * BASELINE_READS=aggregated to read with the service's single aggregated statement instead of
 * the shape (an article query, then one batched query for the links); BASELINE_LIST=stream
 * to stream the whole list (sendStreamedList) instead of answering it from memory.
 */
const MAX_ID = 2_147_483_647;
/** The service's pool size and timeouts, so that both wait on the database alike. */
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  connectionTimeoutMillis: 5_000,
  statement_timeout: 5_000,
});
/** BASELINE_LIST=stream: the whole list through a cursor, LIST_CHUNK articles at a time (the service's chunk). */
const STREAMED_LIST = process.env.BASELINE_LIST === 'stream';
const LIST_CHUNK = 200;
const store = new ArticleStore(pool, process.env.BASELINE_READS === 'aggregated' ? 'aggregated' : 'links');
const token = process.env.API_TOKEN ? digest(process.env.API_TOKEN) : null;

const server = http.createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    if (error instanceof BadRequest) return send(response, error.status, failure(error.message));
    if (error instanceof UnknownTermError) return send(response, 400, failure(error.message));
    if (error instanceof SlugTakenError) return send(response, 409, failure(error.message));
    if (error instanceof SlugTriesExhaustedError) return send(response, 503, failure(error.message));
    console.error(error);
    send(response, 500, failure('Internal error'));
  });
});

async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0] as string;
  if (request.method === 'GET' && path === '/article') {
    if (STREAMED_LIST) return sendStreamedList(response);
    return send(response, 200, success(await store.listVisible()));
  }
  if (
    request.method === 'GET' &&
    path.startsWith('/article/') &&
    path !== '/article/create' &&
    path !== '/article/update'
  ) {
    const raw = path.slice('/article/'.length);
    const id = /^[1-9][0-9]*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(id <= MAX_ID)) {
      throw new BadRequest(400, `id: "${raw}" is not an article id (a positive integer up to 2147483647)`);
    }
    return send(response, 200, success(await store.findById(id)));
  }
  if (request.method === 'POST' && (path === '/article/create' || path === '/article/update')) {
    checkToken(request, response);
    const body = await readJson(request);
    if (path === '/article/create')
      return send(response, 201, success(await store.create(toNewArticle(body), new Date())));
    const changes = toChanges(body);
    const updated = await store.update(changes, new Date());
    if (!updated) throw new BadRequest(404, `article ${changes.id} does not exist`);
    return send(response, 200, success(updated));
  }
  throw new BadRequest(404, `No route for ${request.method} ${path}`);
}

/**
 * The list written as its chunks come, each chunk one write (`JSON.stringify` of each article),
 * waiting for `drain` when the socket is full. A failure once the head is sent ends the answer
 * cut short, as the service's does.
 */
async function sendStreamedList(response: ServerResponse): Promise<void> {
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  let before = '{"statusCode":10000,"data":[';
  try {
    await store.streamVisible(LIST_CHUNK, async (articles) => {
      if (articles.length === 0) return;
      const text = before + articles.map((article) => JSON.stringify(article)).join(',');
      before = ',';
      if (!response.write(text)) await drainedOrClosed(response);
    });
  } catch (error) {
    console.error(error);
    response.destroy();
    return;
  }
  response.end(`${before === ',' ? '' : before}],"message":"Success"}`);
}

function checkToken(request: IncomingMessage, response: ServerResponse): void {
  if (token === null) return;
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (presented !== undefined && timingSafeEqual(digest(presented), token)) return;
  response.setHeader('WWW-Authenticate', 'Bearer');
  throw new BadRequest(401, 'This write needs the header Authorization: Bearer <API token>');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

const success = (data: unknown) => ({ statusCode: 10000, data, message: 'Success' });
const failure = (message: string) => ({ statusCode: 10001, data: null, message });

function send(response: ServerResponse, status: number, body: object): void {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  response.end(json);
}

server.listen(Number(process.env.PORT ?? 3001), '127.0.0.1', () => {
  // The harness waits for this line.
  console.log(JSON.stringify({ msg: 'baseline is listening', port: (server.address() as { port: number }).port }));
});

const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
