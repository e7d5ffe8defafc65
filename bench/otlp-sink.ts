import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * `npm run bench -- --otlp`: an OTLP/HTTP receiver that reads and drops every export, so that
 * the service is measured with tracing on and its exporter sending, without a collector's cost
 * on the same cores.
 */
export interface OtlpSink {
  endpoint: string;
  /** Export requests and their body bytes received so far. */
  received(): { requests: number; bytes: number };
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  const server = http.createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ requests, bytes }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
