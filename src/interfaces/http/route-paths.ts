import { HttpRequestError } from './request-errors';

/** A route found for a request, with its path parameters decoded. */
export interface FoundRoute<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

interface PatternedPath<T> {
  /** Its place in the table: the first route whose path matches wins. */
  readonly order: number;
  /** Each segment either literal or `:name`. */
  readonly segments: readonly string[];
  readonly value: T;
}

/**
 * A route table's paths, matched exactly as documented (case, trailing slash: `/Article` and
 * `/article/` are other paths): a literal path in one lookup, a path with parameters
 * (`/article/:id`) segment by segment, each parameter a whole non-empty segment. As in an
 * Express router, the first route in table order whose path matches is the request's, whatever
 * its method (so `GET /article/create` is the create's path, not an id). Compared on the raw
 * path; parameters are then decoded.
 */
export class RoutePaths<T> {
  private readonly literal = new Map<string, { order: number; value: T }>();
  private readonly patterned: PatternedPath<T>[] = [];

  add(path: string, value: T): void {
    const order = this.literal.size + this.patterned.length;
    if (!path.includes(':')) {
      if (!this.literal.has(path)) this.literal.set(path, { order, value });
    } else {
      this.patterned.push({ order, segments: path.split('/'), value });
    }
  }

  /** The route of `path`; null when none (a 400 when a parameter is not valid percent-encoded UTF-8). */
  find(path: string): FoundRoute<T> | null {
    const literal = this.literal.get(path);
    if (this.patterned.length > 0) {
      const segments = path.split('/');
      for (const candidate of this.patterned) {
        if (literal !== undefined && literal.order < candidate.order) break;
        if (matches(candidate.segments, segments)) {
          return { value: candidate.value, params: paramsOf(candidate.segments, segments) };
        }
      }
    }
    return literal === undefined ? null : { value: literal.value, params: {} };
  }
}

function matches(pattern: readonly string[], segments: readonly string[]): boolean {
  if (pattern.length !== segments.length) return false;
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string;
    const actual = segments[index] as string;
    if (expected.startsWith(':') ? actual === '' : expected !== actual) return false;
  }
  return true;
}

function paramsOf(pattern: readonly string[], segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string;
    if (!expected.startsWith(':')) continue;
    try {
      params[expected.slice(1)] = decodeURIComponent(segments[index] as string);
    } catch {
      throw new HttpRequestError(400, 'path: is not valid percent-encoded UTF-8');
    }
  }
  return params;
}
