import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got: its headers and its body exactly as sent. */
export interface ReceivedDelivery {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook receiver on 127.0.0.1 that records every POST and answers `status` (a test may change it). */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedDelivery[];
  status: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const receiver = { received, status: 204 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
