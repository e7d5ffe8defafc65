import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { httpServerFor } from '../../../src/interfaces/http/http-server';

describe('httpServerFor', () => {
  it("builds each request and response with the app's prototypes, and Express serves them as usual", async () => {
    const app = express();
    app.post('/echo', express.json(), (req, res) => {
      res
        .status(201)
        .set('x-seen', req.get('x-sent') ?? '')
        .json({ body: req.body, path: req.path });
    });
    const server = httpServerFor(app);
    const builtWithAppPrototypes: boolean[] = [];
    // Ahead of Express's own listener: what the server built, before Express sets any prototype.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      builtWithAppPrototypes.push(
        Object.getPrototypeOf(request) === app.request && Object.getPrototypeOf(response) === app.response,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sent': 'yes' },
        body: JSON.stringify({ a: 1 }),
      });

      expect(answer.status).toBe(201);
      expect(answer.headers.get('x-seen')).toBe('yes');
      expect(await answer.json()).toEqual({ body: { a: 1 }, path: '/echo' });
      expect(builtWithAppPrototypes).toEqual([true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
