import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PinnedHttpTransport, type ResolveAll } from '../../../src/infrastructure/webhooks/pinned-http-transport';

/**
 * Deliveries to a real local HTTP receiver, with the DNS answers given by the test (a name the
 * test controls, answering what each case needs, including a different answer the second time).
 */
describe('PinnedHttpTransport', () => {
  let receiver: http.Server;
  let port: number;
  const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let answer: (response: http.ServerResponse) => void;

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body });
        answer(response);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    answer = (response) => response.writeHead(204).end();
  });

  /** Answers these addresses for every name, one list per call, the last one again after. */
  const answering = (...answers: string[][]): ResolveAll => {
    let call = 0;
    return async () =>
      (answers[Math.min(call++, answers.length - 1)] ?? []).map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
  };
  const attempt = (url: string, timeoutMs = 5_000) => ({
    url,
    headers: { 'webhook-id': 'evt_1' },
    body: '{"type":"article.published"}',
    timeoutMs,
  });

  it('refuses a private address in the URL, and a name that resolves to one, before connecting', async () => {
    const transport = new PinnedHttpTransport(false, answering(['127.0.0.1']));
    await expect(transport.deliver(attempt(`http://127.0.0.1:${port}/hook`))).resolves.toEqual({
      kind: 'refused',
      reason: '127.0.0.1 is not a public address',
    });
    await expect(transport.deliver(attempt(`http://[::ffff:127.0.0.1]:${port}/hook`))).resolves.toMatchObject({
      kind: 'refused',
    });
    await expect(transport.deliver(attempt(`http://hooks.test:${port}/hook`))).resolves.toEqual({
      kind: 'refused',
      reason: 'hooks.test resolves to 127.0.0.1, not a public address',
    });
    await expect(transport.refusalOf(`http://hooks.test:${port}/hook`)).resolves.toContain('not a public address');
    expect(received).toEqual([]);
  });

  it('refuses a name with any private address among public ones', async () => {
    const transport = new PinnedHttpTransport(false, answering(['93.184.215.14', '169.254.169.254']));
    await expect(transport.deliver(attempt('http://hooks.test/hook'))).resolves.toMatchObject({ kind: 'refused' });
  });

  it('catches a name that answered a public address at the check and a private one at the connection', async () => {
    const transport = new PinnedHttpTransport(false, answering(['93.184.215.14'], ['127.0.0.1']));
    await expect(transport.refusalOf(`http://rebind.test:${port}/hook`)).resolves.toBeNull();
    await expect(transport.deliver(attempt(`http://rebind.test:${port}/hook`))).resolves.toMatchObject({
      kind: 'refused',
    });
    expect(received).toEqual([]);
  });

  it('delivers to the address it checked when private networks are allowed, and follows no redirect', async () => {
    const transport = new PinnedHttpTransport(true, answering(['127.0.0.1']));
    await expect(transport.deliver(attempt(`http://hooks.test:${port}/hook`))).resolves.toEqual({
      kind: 'answered',
      status: 204,
    });
    expect(received).toEqual([
      {
        path: '/hook',
        headers: expect.objectContaining({ 'webhook-id': 'evt_1', 'content-type': 'application/json' }),
        body: '{"type":"article.published"}',
      },
    ]);
    answer = (response) => response.writeHead(301, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    await expect(transport.deliver(attempt(`http://hooks.test:${port}/hook`))).resolves.toEqual({
      kind: 'answered',
      status: 301,
    });
    expect(received.map((request) => request.path)).toEqual(['/hook', '/hook']);
  });

  it('gives up on a receiver that does not answer within the attempt timeout', async () => {
    answer = () => {};
    const transport = new PinnedHttpTransport(true, answering(['127.0.0.1']));
    await expect(transport.deliver(attempt(`http://hooks.test:${port}/slow`, 200))).resolves.toEqual({
      kind: 'failed',
      reason: 'no answer within 200 ms',
    });
  });
});
