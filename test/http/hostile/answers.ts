import type { Exchange } from '../../support/raw-http';

export interface Wrapped {
  statusCode: number;
  data: unknown;
  message: string;
}

/** The shapes of every message that names a problem (api.md: a client can act on it). */
const NAMED_PROBLEM = [
  /^[^\s:][^\n]*: \S/, // field: reason, id: "x" is not an article id, body: is not valid JSON
  /^article \d+ does not exist$/,
  /^No route for [A-Z]+ \//,
  /^The body must be JSON, sent with Content-Type: application\/json$/,
];

/**
 * The answer of a well-behaved service to anything: never a 5xx, never silence, always the
 * wrapper; a rejection is a 4xx whose message names the problem. Returns the wrapper.
 */
export function expectWrappedAnswer(exchange: Exchange, allowedStatuses: readonly number[]): Wrapped {
  if (exchange.kind !== 'answered') throw new Error(`no answer: ${exchange.code}`);
  const body = parseWrapper(exchange.text);
  const problem =
    !allowedStatuses.includes(exchange.status) || exchange.status >= 500
      ? `status ${exchange.status} (allowed: ${allowedStatuses.join(', ')})`
      : !body
        ? 'the body is not the wrapper'
        : exchange.status < 300
          ? body.statusCode === 10000 && body.message === 'Success'
            ? null
            : 'a 2xx without the success wrapper'
          : body.statusCode === 10001 && body.data === null && NAMED_PROBLEM.some((shape) => shape.test(body.message))
            ? null
            : 'a rejection that does not name the problem';
  if (problem || !body)
    throw new Error(`${problem}: ${exchange.kind === 'answered' ? exchange.text.slice(0, 300) : ''}`);
  return body;
}

function parseWrapper(text: string): Wrapped | null {
  try {
    const body = JSON.parse(text);
    const keys = Object.keys(body ?? {}).sort();
    return keys.join() === 'data,message,statusCode' && typeof body.message === 'string' ? body : null;
  } catch {
    return null;
  }
}
