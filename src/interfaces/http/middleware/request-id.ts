import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** Takes the caller's X-Request-Id when it is sane, else makes one; echoes it in the answer. */
export const requestId: RequestHandler = (request, response, next) => {
  const given = request.get('x-request-id');
  request.id = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  response.set('X-Request-Id', request.id);
  next();
};
