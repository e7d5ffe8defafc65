import type { GeneratedRequest, KnownValues } from './generated-requests';
import { serviceTookRequest } from './service-verdict';

/**
 * The rules the service checks that the document states only in words, in its descriptions
 * (ADR 0029), each named here so that nothing else escapes the comparison:
 *
 * - `GET /article`: `after` not with `order=newest`, and `cursor` only with it. OpenAPI 3.1
 *   describes each query parameter on its own, and has no rule between two of them.
 * - `GET /article`: a `cursor` must be one the service gave. It is opaque: the document gives its
 *   characters, and no client (nor this test) can tell more.
 * - `GET /webhook/{id}/deliveries`: `before` must be a position the service gave (opaque, as a cursor).
 * - `POST /webhook/create`: `url` must be an http(s) URL whose host resolves to public addresses
 *   only; what a name resolves to is the network's to say, not a document's.
 * - A body's `publishedAt` is from year 1 to 9999 in UTC. The year in UTC depends on the offset;
 *   a pattern comparing a time with its offset would run to thousands of alternatives, so the
 *   document refuses only the year 0000 it can (all of it but its last day, with `not`).
 */
export interface WordRules {
  /** Parameters the request breaks a rule of: the service must refuse it with a 400 naming one. */
  broken: string[];
  /** Parameters only the service can judge (a cursor it did not give): a 400 naming one is allowed. */
  unknowable: string[];
}

/** The rules in words that a request breaks, or may break. Only meaningful when the document takes it. */
export function wordRulesOf(request: GeneratedRequest, known: KnownValues): WordRules {
  const rules: WordRules = { broken: [], unknowable: [] };
  const [pathname = '', search = ''] = request.path.split('?');
  if (request.method === 'get' && pathname === '/article') {
    const query = new URLSearchParams(search);
    const order = query.get('order');
    const cursor = query.get('cursor');
    if (query.has('after') && order === 'newest') rules.broken.push('after');
    if (cursor !== null && order !== 'newest') rules.broken.push('cursor');
    if (cursor !== null && order === 'newest' && !(known.cursors ?? []).includes(cursor)) {
      rules.unknowable.push('cursor');
    }
  }
  if (request.method === 'get' && /^\/webhook\/[^/]+\/deliveries$/.test(pathname)) {
    if (new URLSearchParams(search).has('before')) rules.unknowable.push('before');
  }
  if (request.method === 'post' && pathname === '/webhook/create') rules.unknowable.push('url');
  if (request.method === 'post' && request.body !== undefined) {
    const publishedAt = publishedAtOf(request.body);
    const year = publishedAt === undefined ? Number.NaN : new Date(publishedAt).getUTCFullYear();
    if (year < 1 || year > 9999) rules.broken.push('publishedAt');
  }
  return rules;
}

function publishedAtOf(body: string): string | undefined {
  try {
    const value = (JSON.parse(body) as { publishedAt?: unknown } | null)?.publishedAt;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A query that keeps the rules between parameters, from one drawn parameter by parameter: a
 * cursor is one the service gave (or none, when none is known) and comes with `order=newest`,
 * and `after` does not.
 */
export function queryKeepingWordRules(query: Array<[string, string]>, known: KnownValues): Array<[string, string]> {
  const cursors = known.cursors ?? [];
  let kept = query.flatMap(([name, value]): Array<[string, string]> => {
    if (name !== 'cursor' || cursors.includes(value)) return [[name, value]];
    const given = cursors[value.length % Math.max(cursors.length, 1)];
    return given === undefined ? [] : [[name, given]];
  });
  if (kept.some(([name]) => name === 'cursor')) {
    kept = [...kept.filter(([name]) => name !== 'order'), ['order', 'newest']];
  }
  const newest = kept.some(([name, value]) => name === 'order' && value === 'newest');
  return newest ? kept.filter(([name]) => name !== 'after') : kept;
}

/** What the service must answer: the document's verdict, then its rules in words. */
export type ExpectedAnswer =
  | { kind: 'taken' }
  | { kind: 'refused' }
  | { kind: 'refused naming'; names: string[] }
  | { kind: 'taken, or refused naming'; names: string[] };

export function expectedAnswer(documentTakes: boolean, rules: WordRules): ExpectedAnswer {
  if (!documentTakes) return { kind: 'refused' };
  if (rules.broken.length > 0) return { kind: 'refused naming', names: [...rules.broken, ...rules.unknowable] };
  if (rules.unknowable.length > 0) return { kind: 'taken, or refused naming', names: rules.unknowable };
  return { kind: 'taken' };
}

/** Whether the service's answer is the one expected. */
export function answerAgrees(expected: ExpectedAnswer, status: number, message: string): boolean {
  const taken = serviceTookRequest(status, message);
  const refusedNaming = (names: string[]) => status === 400 && names.some((name) => message.startsWith(`${name}: `));
  switch (expected.kind) {
    case 'taken':
      return taken;
    case 'refused':
      return !taken;
    case 'refused naming':
      return refusedNaming(expected.names);
    default:
      return taken || refusedNaming(expected.names);
  }
}

export function describeExpected(expected: ExpectedAnswer): string {
  return 'names' in expected ? `${expected.kind} ${expected.names.join(' or ')}` : expected.kind;
}

/** The `cursor` of a `Link: rel="next"` header, if it has one. */
export function cursorOfLink(link: string | string[] | null | undefined): string | undefined {
  return /[?&]cursor=([A-Za-z0-9_-]+)/.exec(String(link ?? ''))?.[1];
}
