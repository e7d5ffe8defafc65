import express, { type NextFunction, type Request, type Response } from 'express';
import { Pool } from 'pg';
import { ArticleStore, SlugTakenError, SlugTriesExhaustedError, UnknownTermError } from './article-store';
import { BadRequest, toChanges, toNewArticle } from './request-body';

/**
 * The raw baseline's store and SQL behind a bare Express 5 app: Express's routing, its JSON
 * body parser and `res.json`, and nothing else (no validation library, logging, metrics or
 * security headers). It measures what Express itself costs on this machine, apart from the
 * service's own code; `npm run bench` measures it beside the service and the raw floor.
 * Env: PORT, DATABASE_URL (migrated by the service), API_TOKEN (compared plainly: the floor
 * needs the check's shape, not its constant time), BASELINE_READS as for the raw floor.
 */
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  connectionTimeoutMillis: 5_000,
  statement_timeout: 5_000,
});
const store = new ArticleStore(pool, process.env.BASELINE_READS === 'aggregated' ? 'aggregated' : 'links');
const token = process.env.API_TOKEN ? `Bearer ${process.env.API_TOKEN}` : null;

const success = (data: unknown) => ({ statusCode: 10000, data, message: 'Success' });
const failure = (message: string) => ({ statusCode: 10001, data: null, message });

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const checkToken = (request: Request, _response: Response, next: NextFunction) => {
  if (token !== null && request.get('authorization') !== token) return next(new BadRequest(401, 'token'));
  next();
};

app.get('/article', async (_request, response) => {
  response.json(success(await store.listVisible()));
});
app.get('/article/:id', async (request, response) => {
  const raw = String(request.params.id);
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(id <= 2_147_483_647)) throw new BadRequest(400, `id: "${raw}" is not an article id`);
  response.json(success(await store.findById(id)));
});
app.post('/article/create', checkToken, express.json(), async (request, response) => {
  response.status(201).json(success(await store.create(toNewArticle(request.body), new Date())));
});
app.post('/article/update', checkToken, express.json(), async (request, response) => {
  const changes = toChanges(request.body);
  const updated = await store.update(changes, new Date());
  if (!updated) throw new BadRequest(404, `article ${changes.id} does not exist`);
  response.json(success(updated));
});
app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
  if (error instanceof BadRequest) return response.status(error.status).json(failure(error.message));
  if (error instanceof UnknownTermError) return response.status(400).json(failure(error.message));
  if (error instanceof SlugTakenError) return response.status(409).json(failure(error.message));
  if (error instanceof SlugTriesExhaustedError) return response.status(503).json(failure(error.message));
  console.error(error);
  response.status(500).json(failure('Internal error'));
});

const server = app.listen(Number(process.env.PORT ?? 3002), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'express floor is listening', port: Number(process.env.PORT ?? 3002) }));
});

const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
