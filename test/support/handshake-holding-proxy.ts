import net from 'node:net';

/**
 * A TCP proxy in front of a real PostgreSQL server, for one fault that timing alone reaches
 * only by luck: a session that ends in the very network read that completes its handshake.
 * Once armed, it holds back the server's ReadyForQuery on the next new connection, lets the
 * test end that session (its backend pid is known from BackendKeyData), waits for the server's
 * FATAL message, and delivers both in one write, as a kernel may coalesce them. Everything
 * else passes through unchanged. Server messages are a type byte and a 4-byte length.
 */
export class HandshakeHoldingProxy {
  private armed: ((backendPid: number) => Promise<void>) | null = null;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<HandshakeHoldingProxy> {
    let proxy: HandshakeHoldingProxy | undefined;
    const server = net.createServer((client) => proxy?.relay(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new HandshakeHoldingProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  /** The next new connection's handshake is held until `endSession(backendPid)` has run. */
  arm(endSession: (backendPid: number) => Promise<void>): void {
    this.armed = endSession;
  }

  /** No connection's handshake is held (the armed one was not used). */
  disarm(): void {
    this.armed = null;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(client: net.Socket, target: { host: string; port: number }): void {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.pipe(upstream);
    const endSession = this.armed;
    this.armed = null;
    if (!endSession) {
      upstream.pipe(client);
      return;
    }
    let pending = Buffer.alloc(0);
    let backendPid = 0;
    let held: Buffer[] = [];
    let ending: Promise<void> | null = null;
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5) {
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const message = pending.subarray(0, 1 + length);
        pending = pending.subarray(1 + length);
        const type = String.fromCharCode(message[0] as number);
        if (type === 'K') backendPid = message.readInt32BE(5);
        if (ending === null && type !== 'Z') {
          client.write(message);
        } else if (ending === null) {
          held = [message];
          ending = endSession(backendPid);
        } else {
          held.push(message);
          // The server's FATAL: deliver it in the same write as the held ReadyForQuery.
          if (type === 'E') void ending.then(() => client.end(Buffer.concat(held)));
        }
      }
    });
    upstream.on('end', () => {
      if (ending === null) client.end();
    });
  }
}
