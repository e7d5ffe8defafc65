import http from 'node:http';

export type Outcome =
  | { status: number; body: string; connection: string | undefined }
  /** reusedSocket: the request went out on a kept-alive connection, not a new one. */
  | { error: string; reusedSocket: boolean };

/**
 * One client with one keep-alive socket, like a pooled HTTP client in another service.
 * Answers are outcomes, never throws: a test counts what failed and how.
 */
export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly baseUrl: string) {}

  send(method: 'GET' | 'POST', path: string, body?: object): Promise<Outcome> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      const call = http.request(new URL(path, this.baseUrl), {
        method,
        agent: this.agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      });
      call.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text, connection: response.headers.connection }),
        );
        response.once('error', (error) => resolve(failure(error, call.reusedSocket)));
      });
      call.once('error', (error) => resolve(failure(error, call.reusedSocket)));
      call.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function failure(error: Error, reusedSocket: boolean): Outcome {
  return { error: (error as NodeJS.ErrnoException).code ?? error.message, reusedSocket };
}
