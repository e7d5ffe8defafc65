import type { Request } from 'express';
import {
  ArticleChangedError,
  ArticleNotFoundError,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  StorageUnavailableError,
  UnknownReferenceError,
  ValidationError,
} from '../../../src/domain';
import { errorHandler, toHttpError } from '../../../src/interfaces/http/error-mapping';
import { HttpRequestError, routeNotFound } from '../../../src/interfaces/http/request-errors';
import { recordingResponse } from '../../support/recording-response';

describe('toHttpError', () => {
  it('maps a ValidationError to 400 with its field and reason', () => {
    expect(toHttpError(new ValidationError('title', 'must be a string'))).toEqual({
      status: 400,
      message: 'title: must be a string',
    });
  });

  it('maps an UnknownReferenceError to 400, naming the id', () => {
    expect(toHttpError(new UnknownReferenceError('category', 'ck1abc'))).toEqual({
      status: 400,
      message: 'category: no category with id "ck1abc"',
    });
  });

  it('maps an ArticleNotFoundError to 404, naming the id', () => {
    expect(toHttpError(new ArticleNotFoundError(77))).toEqual({ status: 404, message: 'article 77 does not exist' });
  });

  it('maps an ArticleChangedError to 412, saying the article changed since it was read', () => {
    expect(toHttpError(new ArticleChangedError(5))).toEqual({
      status: 412,
      message: 'article 5 has changed since it was read; read it again',
    });
  });

  it('maps an Idempotency-Key in progress to 409 and one used for another body to 422', () => {
    expect(toHttpError(new IdempotencyKeyInProgressError())).toEqual({
      status: 409,
      message: 'Idempotency-Key: a request with this key is still being processed; retry later',
    });
    expect(toHttpError(new IdempotencyKeyReusedError())).toEqual({
      status: 422,
      message: 'Idempotency-Key: was already used for another request; use a new key for a new article',
    });
  });

  it('maps a StorageUnavailableError to 503 without its cause', () => {
    const error = new StorageUnavailableError({ cause: new Error('ECONNREFUSED 10.0.0.5:5432') });

    expect(toHttpError(error)).toEqual({ status: 503, message: 'storage is unavailable, try again later' });
  });

  it.each([400, 401, 404, 413, 415] as const)('keeps the status %p of an HttpRequestError', (status) => {
    expect(toHttpError(new HttpRequestError(status, 'what went wrong'))).toEqual({
      status,
      message: 'what went wrong',
    });
  });

  it('maps a missing route to 404 naming method and path', () => {
    expect(toHttpError(routeNotFound('DELETE', '/article/1'))).toEqual({
      status: 404,
      message: 'No route for DELETE /article/1',
    });
  });

  it.each([
    ['an Error', new Error('SELECT * FROM secret failed')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'password=hunter2'],
    ['null', null],
    ['undefined', undefined],
    ['an error look-alike', { name: 'ValidationError', message: 'title: nope', field: 'title' }],
  ])('maps %s to 500 "Internal error" without leaking anything', (_, thrown) => {
    expect(toHttpError(thrown)).toEqual({ status: 500, message: 'Internal error' });
  });

  it("maps the router's URIError for an undecodable path parameter to 400 naming the path", () => {
    const error = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400, statusCode: 400 });
    expect(toHttpError(error)).toEqual({ status: 400, message: 'path: is not valid percent-encoded UTF-8' });
  });

  it("maps body-parser's 400 for a body that does not inflate to 400 naming the body, without zlib's words", () => {
    const error = Object.assign(new Error('incorrect header check'), {
      code: 'Z_DATA_ERROR',
      status: 400,
      expose: true,
    });
    expect(toHttpError(error)).toEqual({ status: 400, message: 'body: is not valid data for its Content-Encoding' });
  });

  it('keeps the 4xx of another exposed client error, in words of its own', () => {
    const error = Object.assign(new Error('secret detail'), { status: 431, expose: true });
    expect(toHttpError(error)).toEqual({ status: 431, message: 'request: could not be read' });
  });

  it('does not trust a status on an error that is not marked as a client error', () => {
    expect(toHttpError(Object.assign(new Error('x'), { status: 400 }))).toEqual({
      status: 500,
      message: 'Internal error',
    });
    expect(toHttpError(Object.assign(new Error('x'), { status: 503, expose: true }))).toEqual({
      status: 500,
      message: 'Internal error',
    });
  });
});

describe('errorHandler', () => {
  function handle(error: unknown) {
    const { response, answer } = recordingResponse();
    errorHandler()(error, { id: 'req-1' } as unknown as Request, response, () => {});
    return { answer, loggedError: (response as { err?: unknown }).err };
  }

  it('answers the failure wrapper with the mapped status', () => {
    expect(handle(new ArticleNotFoundError(3)).answer).toEqual({
      status: 404,
      body: { statusCode: 10001, data: null, message: 'article 3 does not exist' },
    });
  });

  it('hands an unexpected error to the request log line, and answers only "Internal error"', () => {
    const error = new Error('driver exploded');
    const { answer, loggedError } = handle(error);

    expect(answer).toEqual({ status: 500, body: { statusCode: 10001, data: null, message: 'Internal error' } });
    expect(loggedError).toBe(error);
  });

  it('tells when to retry a 503, and only a 503', () => {
    expect(handle(new StorageUnavailableError()).answer).toEqual({
      status: 503,
      headers: { 'Retry-After': '1' },
      body: { statusCode: 10001, data: null, message: 'storage is unavailable, try again later' },
    });
    expect(handle(new ArticleNotFoundError(3)).answer.headers).toBeUndefined();
  });

  it('hands over unavailable storage too, and no client error', () => {
    const unavailable = new StorageUnavailableError();
    expect(handle(unavailable).loggedError).toBe(unavailable);
    expect(handle(new ValidationError('content', 'is required')).loggedError).toBeUndefined();
    expect(handle(new HttpRequestError(404, 'No route for GET /x')).loggedError).toBeUndefined();
  });
});
