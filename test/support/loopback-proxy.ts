import net from 'node:net';

/**
 * What the test proxies in front of PostgreSQL (statement counter, commit killer, switchable)
 * share: where clients reach them, and how they stop.
 */
export abstract class LoopbackProxy {
  protected constructor(
    protected readonly server: net.Server,
    protected readonly sockets: Set<net.Socket>,
    readonly port: number,
  ) {}

  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Connects `client` to `target`, both tracked in `sockets` until they close; an error on either
 * ends both. The caller decides what flows between them.
 */
export function upstreamFor(
  client: net.Socket,
  target: { host: string; port: number },
  sockets: Set<net.Socket>,
): net.Socket {
  const upstream = net.connect(target.port, target.host);
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
  }
  return upstream;
}

/** Simple Query ('Q') and extended-protocol Execute ('E'): the messages that run a statement. */
export const isStatementMessage = (type: number): boolean => type === 0x51 || type === 0x45;

/**
 * Splits what a PostgreSQL client sends into messages, across chunks, and calls `onMessage`
 * with each one's type byte. The startup message has no type byte; every later message is
 * type, int32 length, body.
 */
export function frontendMessages(onMessage: (type: number) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let startedUp = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const header = startedUp ? 5 : 4;
      if (pending.length < header) break;
      const length = pending.readInt32BE(startedUp ? 1 : 0) + (startedUp ? 1 : 0);
      if (pending.length < length) break;
      if (startedUp) onMessage(pending[0] as number);
      pending = pending.subarray(length);
      startedUp = true;
    }
  };
}
