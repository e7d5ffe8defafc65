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
  return wholeMessages((message) => onMessage(message[0] as number), { untypedFirst: true });
}

/** Splits what a PostgreSQL server sends into whole messages (type byte, int32 length, body). */
export function backendMessages(onMessage: (message: Buffer) => void): (chunk: Buffer) => void {
  return wholeMessages(onMessage, { untypedFirst: false });
}

/** Whole protocol messages across chunks; `untypedFirst`: the first has no type byte (a client's startup) and is skipped. */
function wholeMessages(
  onMessage: (message: Buffer) => void,
  { untypedFirst }: { untypedFirst: boolean },
): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let typed = !untypedFirst;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const header = typed ? 5 : 4;
      if (pending.length < header) break;
      const length = pending.readInt32BE(typed ? 1 : 0) + (typed ? 1 : 0);
      if (pending.length < length) break;
      if (typed) onMessage(pending.subarray(0, length));
      pending = pending.subarray(length);
      typed = true;
    }
  };
}
