import { randomUUID } from 'node:crypto';
import type { Request } from 'express';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** The caller's X-Request-Id when it is sane, else a new one (request-frame.ts echoes it). */
export function requestIdOf(request: Request): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
}
