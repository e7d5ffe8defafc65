import type { Request, Response } from 'express';
import { type Actor, UnauthenticatedError } from '../../../src/domain';
import { type Authenticate, actorOf, authenticated } from '../../../src/interfaces/http/middleware/authenticate';
import {
  FAILED_AUTHENTICATION_LIMIT,
  FailedAuthentications,
} from '../../../src/interfaces/http/middleware/failed-authentications';
import { HttpRequestError } from '../../../src/interfaces/http/request-errors';

const KEY_ACTOR: Actor = { kind: 'key', keyId: 'k1', role: 'author', author: null };
const ADDRESS = '10.0.0.7';

/** One request through the middleware: what `next` got, and whether it came in the same turn. */
function run(authenticate: Authenticate, header: string | undefined, options: { write?: boolean } = {}) {
  const failures = new FailedAuthentications();
  const request = { get: (name: string) => (name === 'authorization' ? header : undefined), ip: ADDRESS } as Request;
  const headers: Record<string, string> = {};
  const response = { locals: {}, set: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
  const through = (middleware: ReturnType<typeof authenticated>) =>
    new Promise<{ error: unknown; synchronous: boolean }>((resolve) => {
      let returned = false;
      void middleware(request, response, (error?: unknown) => resolve({ error, synchronous: !returned }));
      returned = true;
    });
  return {
    failures,
    response,
    headers,
    next: () => through(authenticated(authenticate, options.write ?? false, failures)),
  };
}

describe('authenticated (middleware)', () => {
  it('goes on in the same turn when the actor is known at once, and hands the actor to the route', async () => {
    const tokens: (string | null)[] = [];
    const { next, response } = run((token) => {
      tokens.push(token);
      return KEY_ACTOR;
    }, 'Bearer blog_abc');
    await expect(next()).resolves.toEqual({ error: undefined, synchronous: true });
    expect(actorOf(response)).toBe(KEY_ACTOR);
    expect(tokens).toEqual(['blog_abc']);
  });

  it('waits for an actor that needs the storage', async () => {
    const { next, response } = run(async () => KEY_ACTOR, 'Bearer blog_abc');
    await expect(next()).resolves.toEqual({ error: undefined, synchronous: false });
    expect(actorOf(response)).toBe(KEY_ACTOR);
  });

  it('passes no token without the header, and an empty one for a header that is not a bearer token', async () => {
    const tokens: (string | null)[] = [];
    const authenticate: Authenticate = (token) => {
      tokens.push(token);
      return { kind: 'anonymous' };
    };
    await run(authenticate, undefined).next();
    await run(authenticate, 'Basic dXNlcjpwYXNz').next();
    expect(tokens).toEqual([null, '']);
  });

  it('counts a refused token against the address and passes the refusal on', async () => {
    const refusal = new UnauthenticatedError('not a valid key');
    const { next, failures } = run(() => Promise.reject(refusal), 'Bearer blog_bad');
    for (let n = 0; n < FAILED_AUTHENTICATION_LIMIT.attempts; n++) {
      await expect(next()).resolves.toEqual({ error: refusal, synchronous: false });
    }
    expect(failures.retryAfterSeconds(ADDRESS)).toBeGreaterThan(0);
  });

  it('refuses a write without a credential, at once', async () => {
    const { next } = run(() => ({ kind: 'anonymous' }), undefined, { write: true });
    const { error, synchronous } = await next();
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(synchronous).toBe(true);
  });

  it('answers 429 with Retry-After to any token from an address past its refusals, before authenticating', async () => {
    const authenticate = jest.fn<Actor, [string | null]>(() => KEY_ACTOR);
    const { next, failures, headers } = run(authenticate, 'Bearer blog_valid');
    for (let n = 0; n < FAILED_AUTHENTICATION_LIMIT.attempts; n++) failures.record(ADDRESS);
    const { error } = await next();
    expect(error).toBeInstanceOf(HttpRequestError);
    expect((error as HttpRequestError).status).toBe(429);
    expect(Number(headers['Retry-After'])).toBeGreaterThan(0);
    expect(authenticate).not.toHaveBeenCalled();
  });
});
