/** Failures of the HTTP exchange itself, before any use case runs. */
export class HttpRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 413 | 415 | 429 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'HttpRequestError';
  }
}

export const routeNotFound = (method: string, path: string) =>
  new HttpRequestError(404, `No route for ${method} ${path}`);
