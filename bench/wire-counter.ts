import net from 'node:net';
import { frontendMessages, isStatementMessage, LoopbackProxy, upstreamFor } from '../test/support/loopback-proxy';

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
export class WireCounter extends LoopbackProxy {
  private counts: WireCounts = { connections: 0, turns: 0, statements: 0, bytesDown: 0 };

  static async start(target: { host: string; port: number }): Promise<WireCounter> {
    const sockets = new Set<net.Socket>();
    let self: WireCounter | undefined;
    const server = net.createServer((client) => {
      const upstream = upstreamFor(client, target, sockets);
      for (const socket of [client, upstream]) socket.on('end', () => (socket === client ? upstream : client).end());
      const counts = () => (self as WireCounter).counts;
      counts().connections++;
      let serverSpoke = true;
      const read = frontendMessages((type) => {
        if (isStatementMessage(type)) counts().statements++;
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
}
