import type { Request, Response } from 'express';

/**
 * A JSON answer written straight on Node's response: Express's `res.json` would parse its own
 * Content-Type back and look for an ETag and freshness this API does not use (app.ts turns both
 * off). Node counts the length of a body given to `end`; a HEAD answer has none, so it is given.
 */
export function sendJson(request: Request, response: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (request.method === 'HEAD') response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
