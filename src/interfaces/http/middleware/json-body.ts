import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { HttpRequestError } from '../request-errors';

/**
 * Accepts only `application/json` bodies (415 otherwise) in UTF-8 (415 for another charset), within
 * the size limit (413), and turns body-parser's errors into HttpRequestErrors with a message a
 * client can act on. Any JSON value is parsed, so that a scalar is the route schema's
 * "body: must be a JSON object" rather than body-parser's "not valid JSON".
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: false,
    type: 'application/json',
    // `encoding` is the declared charset, lower-cased, or utf-8. body-parser would decode any utf-*.
    verify: (_request, _response, raw, encoding) => {
      if (encoding !== 'utf-8' || startsWithUtf16ByteOrderMark(raw)) throw unsupportedCharset();
      // Bad UTF-8 would otherwise become U+FFFD silently: the stored text would not be what was sent.
      if (!isUtf8(raw)) throw new Error('not UTF-8');
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

/**
 * FF FE or FE FF: a UTF-16 (or UTF-32LE) text, whatever the Content-Type says. A UTF-8 byte order
 * mark (EF BB BF) is accepted and dropped, as RFC 8259 §8.1 allows (ADR 0027).
 */
function startsWithUtf16ByteOrderMark(raw: Buffer): boolean {
  return raw.length >= 2 && ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff));
}

/** Marked with body-parser's own type for a charset it refuses, so that both are answered alike. */
function unsupportedCharset(): Error {
  return Object.assign(new Error('not UTF-8 JSON'), { type: 'charset.unsupported' });
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
