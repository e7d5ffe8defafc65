import net from 'node:net';

/** What crossed the proxy since the last reset. */
export interface WireCounts {
  /** TCP connections opened to the server: each costs one round trip (SYN, SYN-ACK) before any message. */
  connections: number;
  /**
   * Turns: times the client sent something after the server had spoken on that connection (or
   * first). node-postgres waits for each answer before it sends the next message, so each turn
   * is one round trip; the startup and each step of the password exchange are one each.
   */
  turns: number;
  /** Simple Query ('Q') and extended-protocol Execute ('E') messages: statements run. */
  statements: number;
  /** Bytes from the server to the client. */
  bytesDown: number;
}

/**
 * A TCP proxy on the loopback interface in front of a PostgreSQL server, counting round trips,
 * statements and bytes off the wire (what reaches the database, whatever the code above the
 * driver does). It adds no delay of its own worth counting next to a slow link.
 */
export class WireCounter {
  private counts: WireCounts = { connections: 0, turns: 0, statements: 0, bytesDown: 0 };

  private constructor(
    private readonly server: net.Server,
    private readonly sockets: Set<net.Socket>,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<WireCounter> {
    const sockets = new Set<net.Socket>();
    let self: WireCounter | undefined;
    const server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
        socket.on('end', () => (socket === client ? upstream : client).end());
      }
      const counts = () => (self as WireCounter).counts;
      counts().connections++;
      let serverSpoke = true;
      const read = messageTypes((type) => {
        if (type === 0x51 || type === 0x45) counts().statements++;
      });
      client.on('data', (chunk: Buffer) => {
        if (serverSpoke) counts().turns++;
        serverSpoke = false;
        read(chunk);
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        serverSpoke = true;
        counts().bytesDown += chunk.length;
        client.write(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new WireCounter(server, sockets, (server.address() as net.AddressInfo).port);
    return self;
  }

  /** The counts since the last call, which starts them again from zero. */
  take(): WireCounts {
    const taken = this.counts;
    this.counts = { connections: 0, turns: 0, statements: 0, bytesDown: 0 };
    return taken;
  }

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
 * Splits what a PostgreSQL client sends into messages, across chunks, and calls `onMessage`
 * with each one's type byte. The startup message (and an SSL request before it) has no type
 * byte; every later message is type, int32 length, body.
 */
function messageTypes(onMessage: (type: number) => void): (chunk: Buffer) => void {
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
