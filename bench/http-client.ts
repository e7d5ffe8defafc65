/** The token every write of the benchmark carries; both servers are started with it. */
export const BENCH_TOKEN = 'bench-token';

/**
 * The service's environment in every measurement: `npm start`'s defaults (info logs, one line per
 * request, included), plus the token that writes need. No setting the benchmark alone would use.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { API_TOKEN: BENCH_TOKEN };

export interface Wrapped<T> {
  statusCode: number;
  data: T;
  message: string;
}

/**
 * One JSON request; anything but a 2xx answer with statusCode 10000 fails. Writes carry the
 * bench's token; a read only when `authorized` (a draft is null to a reader without one).
 */
export async function call<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  authorized = body !== undefined,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...(authorized && { Authorization: `Bearer ${BENCH_TOKEN}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const wrapped = JSON.parse(text) as Wrapped<T>;
  if (!response.ok || wrapped.statusCode !== 10000) {
    throw new Error(`${method} ${baseUrl}${path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return wrapped.data;
}
