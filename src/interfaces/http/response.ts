/** The envelope of every article, seed, tag and category answer, and of every error. */
export interface Wrapped<T> {
  statusCode: 10000 | 10001;
  data: T | null;
  message: string;
}

export const SUCCESS_CODE = 10000;
export const FAILURE_CODE = 10001;

export function success<T>(data: T): Wrapped<T> {
  return { statusCode: SUCCESS_CODE, data, message: 'Success' };
}

export function failure(message: string): Wrapped<never> {
  return { statusCode: FAILURE_CODE, data: null, message };
}

/** A success whose answer carries headers beside its data (ETag, Link). */
export class WithHeaders {
  constructor(
    readonly data: unknown,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/** A success whose `data` is a list written as it is read, one batch at a time. */
export class StreamedList {
  constructor(
    /** Each item already as its JSON text (presenters.ts), so that the writer only joins them. */
    readonly batches: AsyncGenerator<readonly string[], unknown>,
    /** Asked once the first batch is read, before the first byte is sent (an ETag known by then). */
    readonly headers: () => Readonly<Record<string, string>> = () => ({}),
  ) {}
}

/** A success answered as it was written before: the whole JSON body, wrapper included. */
export class WrappedJsonBody {
  constructor(
    readonly body: Buffer,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A success answered as a document of its own type, not wrapped (a feed). */
export class UnwrappedBody {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/** A conditional GET whose If-None-Match names the current ETag: 304, these headers, no body. */
export class NotModified {
  constructor(readonly headers: Readonly<Record<string, string>>) {}
}

/** A resource found under another path: 301, `Location`, and the wrapper with `data`. */
export class MovedPermanently {
  constructor(
    readonly location: string,
    readonly data: unknown,
  ) {}
}
