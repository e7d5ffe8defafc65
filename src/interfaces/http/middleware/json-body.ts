import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { HttpRequestError } from '../request-errors';

/**
 * Accepts only `application/json` bodies (415 otherwise), within the size limit (413), and
 * turns body-parser's errors into HttpRequestErrors with a message a client can act on.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: true,
    type: 'application/json',
    // Bad UTF-8 would otherwise become U+FFFD silently: the stored text would not be what was sent.
    verify: (_request, _response, raw, encoding) => {
      if (encoding === 'utf-8' && !isUtf8(raw)) throw new Error('not UTF-8');
    },
  });
  return (request, response, next) => {
    if (!request.is('application/json')) {
      return next(new HttpRequestError(415, 'The body must be JSON, sent with Content-Type: application/json'));
    }
    // body-parser would read an empty body as {}; say what is really wrong.
    if (request.get('content-length') === '0') {
      return next(new HttpRequestError(400, 'body: is empty, expected a JSON object'));
    }
    parse(request, response, (error?: unknown) => next(error && translateBodyParserError(error, limitBytes)));
  };
}

function translateBodyParserError(error: unknown, limitBytes: number): unknown {
  switch ((error as { type?: string }).type) {
    case 'entity.parse.failed':
      return new HttpRequestError(400, 'body: is not valid JSON');
    case 'entity.verify.failed':
      return new HttpRequestError(400, 'body: is not valid UTF-8');
    case 'entity.too.large':
      return new HttpRequestError(413, `body: larger than the limit of ${limitBytes} bytes`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new HttpRequestError(415, 'body: unsupported charset or content encoding (send UTF-8 JSON)');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new HttpRequestError(400, 'body: could not be read completely');
    default:
      return error;
  }
}
