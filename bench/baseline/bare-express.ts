import http from 'node:http';
import express from 'express';
import { httpServerFor } from '../../src/interfaces/http/http-server';

/**
 * A bare Express 5 app for `npm run bench -- express-prototypes` (ADR 0051): one route that sets
 * a header and ends with a fixed JSON text, on Node's plain server (`SERVER=plain`, what
 * `app.listen` does) or on the service's (`SERVER=prototypes`, httpServerFor). Env: PORT.
 */
const body = JSON.stringify({ statusCode: 10000, data: { id: 1, title: 'x'.repeat(300) }, message: 'Success' });
const app = express();
app.get('/article/:id', (_request, response) => {
  response.set('x-answer', 'fixed').status(200).type('json').end(body);
});
const server = process.env.SERVER === 'plain' ? http.createServer(app) : httpServerFor(app);
server.listen(Number(process.env.PORT), '127.0.0.1');
