import net from 'node:net';
import { frontendMessages, isStatementMessage, LoopbackProxy } from './loopback-proxy';

type Target = { host: string; port: number };

/**
 * A TCP proxy standing for the address a service reaches its primary by (HAProxy or PgBouncer
 * in front of Patroni), which a test re-points or silences:
 * - `forwardTo(target)`: new connections go to `target`; the open ones stay where they were, as
 *   a stale route keeps them on the old node;
 * - `silence()`: the primary's host is gone without a word: open connections carry nothing any
 *   more, new ones are accepted and never answered (a blackholed address); `silenceAfter(bytes)`
 *   does so once that many more bytes have come from the database, in the middle of an answer
 *   at a byte the test chooses, whatever the sockets on either side hold;
 * - `restore()`: back from silence, the held connections are closed (the host restarted) and
 *   new ones go to the target again;
 * - `refuse(count)`: the open connections are shut, and the next `count` new ones closed as soon
 *   as they come, as PgBouncer refuses a pool's clients for a while after one failed login.
 * It counts the attempts to reach the primary: each connection accepted, and each statement
 * the clients send on it (simple Query 'Q' and extended-protocol Execute 'E'), delivered or not.
 */
export class SwitchableProxy extends LoopbackProxy {
  attempts = 0;
  private silent = false;
  private refusing = 0;
  private silenceAt: { remaining: number; onSilent: () => void } | null = null;

  private constructor(
    server: net.Server,
    private target: Target,
    port: number,
  ) {
    super(server, new Set<net.Socket>(), port);
  }

  static async start(target: Target): Promise<SwitchableProxy> {
    let proxy: SwitchableProxy | undefined;
    const server = net.createServer((client) => proxy?.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new SwitchableProxy(server, target, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  forwardTo(target: Target): void {
    this.target = target;
  }

  silence(): void {
    this.silent = true;
  }

  /** Silent once `bytes` more have come from the database (all connections); `onSilent` is told then. */
  silenceAfter(bytes: number, onSilent: () => void): void {
    this.silenceAt = { remaining: bytes, onSilent };
  }

  restore(): void {
    this.silent = false;
    for (const socket of this.sockets) socket.destroy();
  }

  refuse(count: number): void {
    this.refusing = count;
    for (const socket of this.sockets) socket.destroy();
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
  }

  /** The part of the database's bytes to pass on before a silenceAfter falls due (then silent). */
  private upTo(chunk: Buffer): Buffer {
    const due = this.silenceAt;
    if (due === null) return chunk;
    if (chunk.length < due.remaining) {
      due.remaining -= chunk.length;
      return chunk;
    }
    this.silenceAt = null;
    this.silent = true;
    due.onSilent();
    return chunk.subarray(0, due.remaining);
  }

  private accept(client: net.Socket): void {
    this.attempts++;
    this.track(client);
    if (this.refusing > 0) {
      this.refusing--;
      client.destroy();
      return;
    }
    const upstream = this.silent ? null : net.connect(this.target.port, this.target.host);
    if (upstream) {
      this.track(upstream);
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('data', (chunk: Buffer) => {
        if (!this.silent) client.write(this.upTo(chunk));
      });
    }
    // Count statements off the wire, delivered or not.
    const read = frontendMessages((type) => {
      if (isStatementMessage(type)) this.attempts++;
    });
    client.on('data', (chunk: Buffer) => {
      if (!this.silent) upstream?.write(chunk);
      read(chunk);
    });
  }
}
