import http from 'node:http';

export interface RequestInFlight {
  /** Resolves with the status of the answer once the body has been sent and answered. */
  answered: Promise<number>;
  /** Sends the body: until then the server holds the request, in flight. */
  finish(): void;
}

/**
 * A POST of a JSON body that the server has taken but cannot finish: the headers go at once
 * with `Expect: 100-continue`, the body only at `finish()`. The server writes 100 Continue as
 * it emits the request, so from the moment this resolves the request is in flight, for as long
 * as the test wants (a stop signal's worst moment).
 */
export async function requestInFlight(url: URL, body: string): Promise<RequestInFlight> {
  const call = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answered = new Promise<number>((resolve, reject) => {
    call.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    call.once('error', reject);
  });
  const continued = new Promise((resolve) => call.once('continue', resolve));
  call.flushHeaders();
  await continued;
  return { answered, finish: () => call.end(body) };
}
