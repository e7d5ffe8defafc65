import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpRequestError } from '../request-errors';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Writes need `Authorization: Bearer <token>`; compared in constant time (digests of equal length). */
export function requireBearerToken(token: string): RequestHandler {
  const expected = digest(token);
  return (request, response, next) => {
    const presented = BEARER.exec(request.get('authorization') ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return next();
    response.set('WWW-Authenticate', 'Bearer');
    next(new HttpRequestError(401, 'This write needs the header Authorization: Bearer <API token>'));
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
