import http from 'node:http';

/** One HTTP exchange as a client sees it: an answer, or the way it failed. */
export type Exchange =
  | { kind: 'answered'; status: number; headers: http.IncomingHttpHeaders; text: string; reusedSocket: boolean }
  | { kind: 'failed'; code: string; reusedSocket: boolean };

export interface RawRequest {
  method: string;
  /** Sent as given: the caller percent-encodes what Node's client would refuse (bytes outside 0x21-0xff). */
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string | Buffer;
}

/**
 * A keep-alive HTTP client for 127.0.0.1 that sends bytes exactly as given (fetch and supertest
 * normalise paths and bodies) and never throws: a failure is an outcome, with the error code,
 * and whether it happened on a reused keep-alive connection. Every exchange has a deadline, so
 * nothing a test sends can hang it.
 */
export class RawHttpClient {
  private readonly agent: http.Agent;
  private readonly target: URL;

  constructor(
    baseUrl: string,
    private readonly options: {
      maxSockets?: number;
      deadlineMs?: number;
      /** Sent with every request (a request's own headers win): `authorization`, say. */
      headers?: http.OutgoingHttpHeaders;
    } = {},
  ) {
    this.target = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 });
  }

  exchange(request: RawRequest): Promise<Exchange> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: Exchange) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      const call = http.request({
        host: this.target.hostname,
        port: this.target.port,
        method: request.method,
        path: request.path,
        headers: {
          ...this.options.headers,
          ...request.headers,
          ...(request.body === undefined ? {} : contentLength(request.body)),
        },
        agent: this.agent,
      });
      const deadline = setTimeout(() => {
        settle({ kind: 'failed', code: 'CLIENT_DEADLINE', reusedSocket: call.reusedSocket });
        call.destroy();
      }, this.options.deadlineMs ?? 15_000);
      call.once('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () =>
          settle({
            kind: 'answered',
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            reusedSocket: call.reusedSocket,
          }),
        );
        response.once('error', (error: NodeJS.ErrnoException) =>
          settle({ kind: 'failed', code: `RESPONSE_${error.code ?? error.message}`, reusedSocket: call.reusedSocket }),
        );
      });
      call.once('error', (error: NodeJS.ErrnoException) =>
        settle({ kind: 'failed', code: error.code ?? error.message, reusedSocket: call.reusedSocket }),
      );
      call.end(request.body);
    });
  }

  /** Sends a JSON body (the text given, or a value to stringify) with Content-Type: application/json. */
  postJson(path: string, body: unknown, raw = false): Promise<Exchange> {
    return this.exchange({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: raw ? (body as string | Buffer) : JSON.stringify(body),
    });
  }

  get(path: string): Promise<Exchange> {
    return this.exchange({ method: 'GET', path });
  }

  close(): void {
    this.agent.destroy();
  }
}

function contentLength(body: string | Buffer): http.OutgoingHttpHeaders {
  return { 'content-length': Buffer.byteLength(body) };
}

/** The parsed JSON of an answer, or undefined when it is not JSON. */
export function jsonOf(exchange: Exchange): unknown {
  if (exchange.kind !== 'answered') return undefined;
  try {
    return JSON.parse(exchange.text);
  } catch {
    return undefined;
  }
}
