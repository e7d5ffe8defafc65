import { HttpRequestError } from './request-errors';

/** A query as the routes read it: each name with its text, or its texts when it is repeated. */
export type QueryParameters = Record<string, string | string[]>;

/**
 * The query of a request URL, read as forms encode it (`&`-separated `name=value`, `+` for a
 * space), as Express's default parser reads it, except that a name or value that is not valid
 * percent-encoded UTF-8 is a 400 naming it: Node's querystring keeps `%ZZ` as it is and turns bad
 * UTF-8 into U+FFFD, so a search would look for text the client never sent.
 */
export function queryParametersOf(url: string): QueryParameters {
  // No prototype: a parameter named `__proto__` or `constructor` is just a name.
  const parameters: QueryParameters = Object.create(null);
  const start = url.indexOf('?');
  if (start < 0) return parameters;
  for (const pair of url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decoded(equals < 0 ? pair : pair.slice(0, equals));
    if (name === null) throw new HttpRequestError(400, 'query: a parameter name is not valid percent-encoded UTF-8');
    const value = decoded(equals < 0 ? '' : pair.slice(equals + 1));
    if (value === null) throw new HttpRequestError(400, malformedValueMessage(name));
    const earlier = parameters[name];
    parameters[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return parameters;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/** Names the parameter when its name is fit to start a message: not long, spaced, or with a colon. */
function malformedValueMessage(name: string): string {
  return /^[A-Za-z0-9_.~-]{1,32}$/.test(name)
    ? `${name}: is not valid percent-encoded UTF-8`
    : 'query: a parameter value is not valid percent-encoded UTF-8';
}
