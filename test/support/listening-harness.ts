import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../src/infrastructure/config/config';
import { type HttpHarness, openHttpHarness, type StorageKind } from './http-harness';
import { RawHttpClient } from './raw-http';

/**
 * The real app on a storage, listening on 127.0.0.1 with a keep-alive raw client: requests
 * run truly in parallel (supertest opens a server per request) and bytes go out unaltered.
 */
export interface ListeningHarness {
  readonly harness: HttpHarness;
  readonly http: RawHttpClient;
  /** `http://127.0.0.1:<port>`, for other clients (fetch, curl). */
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function openListeningHarness(
  kind: StorageKind,
  options: { maxSockets?: number; config?: Partial<AppConfig> } = {},
): Promise<ListeningHarness> {
  const harness = await openHttpHarness(kind, options.config);
  // Resolves the app on each request, so that harness.reset() takes effect.
  const server = http.createServer((request, response) => harness.app(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const client = new RawHttpClient(baseUrl, { maxSockets: options.maxSockets ?? 16 });
  return {
    harness,
    http: client,
    baseUrl,
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await harness.close();
    },
  };
}
