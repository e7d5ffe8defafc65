import net from 'node:net';
import { LoopbackProxy } from './loopback-proxy';

/**
 * A TCP proxy in front of a PostgreSQL server that counts the statements clients execute, read
 * off the wire protocol: each simple Query ('Q') and each extended-protocol Execute ('E') message.
 * It counts what reaches the database, whatever the code above the driver logs or forgets to.
 */
export class PostgresStatementCounter extends LoopbackProxy {
  count = 0;
  private constructor(server: net.Server, sockets: Set<net.Socket>, port: number) {
    super(server, sockets, port);
  }

  static async start(target: { host: string; port: number }, listenPort = 0): Promise<PostgresStatementCounter> {
    const sockets = new Set<net.Socket>();
    let counter: PostgresStatementCounter | undefined;
    const server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      upstream.pipe(client);
      let pending = Buffer.alloc(0);
      let startedUp = false;
      client.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          // The startup message has no type byte; every later message is type, int32 length, body.
          const header = startedUp ? 5 : 4;
          if (pending.length < header) break;
          const length = pending.readInt32BE(startedUp ? 1 : 0) + (startedUp ? 1 : 0);
          if (pending.length < length) break;
          if (startedUp && counter && (pending[0] === 0x51 || pending[0] === 0x45)) counter.count++;
          pending = pending.subarray(length);
          startedUp = true;
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
    counter = new PostgresStatementCounter(server, sockets, (server.address() as net.AddressInfo).port);
    return counter;
  }
}
