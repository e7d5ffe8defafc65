import net from 'node:net';
import { LoopbackProxy, upstreamFor } from './loopback-proxy';

/**
 * A TCP proxy in front of PostgreSQL that calls `onCommitted` at the exact moment a chosen
 * statement's transaction has committed, before the client can know it: it reads the wire
 * protocol, and once a client connection has sent a message naming `statementName` (its Parse
 * or Bind), the next ReadyForQuery the server sends that connection with status idle ('I':
 * the autocommit statement or the COMMIT has committed) is held back and `onCommitted` runs
 * instead. That reply, and everything after it on that connection, is never forwarded.
 * Other connections and statements pass through untouched. Fires once.
 */
export class CommitKillProxy extends LoopbackProxy {
  fired = false;

  private constructor(server: net.Server, sockets: Set<net.Socket>, port: number) {
    super(server, sockets, port);
  }

  static async start(
    target: { host: string; port: number },
    statementName: string,
    onCommitted: () => void,
  ): Promise<CommitKillProxy> {
    const sockets = new Set<net.Socket>();
    const marker = Buffer.from(statementName);
    let proxy: CommitKillProxy | undefined;
    const server = net.createServer((client) => {
      const upstream = upstreamFor(client, target, sockets);
      let armed = false;
      let held = false;
      // The statement name may straddle two chunks: keep the tail of the previous one.
      let clientTail: Buffer = Buffer.alloc(0);
      client.on('data', (chunk: Buffer) => {
        if (!armed && proxy && !proxy.fired) {
          armed = Buffer.concat([clientTail, chunk]).includes(marker);
          clientTail = chunk.subarray(Math.max(0, chunk.length - marker.length));
        }
        upstream.write(chunk);
      });
      // Every server message is: type byte, int32 length (itself included), body.
      let pending: Buffer = Buffer.alloc(0);
      upstream.on('data', (chunk: Buffer) => {
        if (held) return;
        pending = Buffer.concat([pending, chunk]);
        let forward = 0;
        while (pending.length - forward >= 5) {
          const length = pending.readInt32BE(forward + 1) + 1;
          if (pending.length - forward < length) break;
          const type = pending[forward];
          const status = pending[forward + 5];
          if (armed && proxy && !proxy.fired && type === 0x5a /* Z */ && status === 0x49 /* I */) {
            client.write(pending.subarray(0, forward));
            held = true;
            proxy.fired = true;
            onCommitted();
            return;
          }
          forward += length;
        }
        client.write(pending.subarray(0, forward));
        pending = pending.subarray(forward);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CommitKillProxy(server, sockets, (server.address() as net.AddressInfo).port);
    return proxy;
  }
}
