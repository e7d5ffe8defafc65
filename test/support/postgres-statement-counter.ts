import net from 'node:net';
import { frontendMessages, isStatementMessage, LoopbackProxy, upstreamFor } from './loopback-proxy';

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
      const upstream = upstreamFor(client, target, sockets);
      upstream.pipe(client);
      const read = frontendMessages((type) => {
        if (counter && isStatementMessage(type)) counter.count++;
      });
      client.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        read(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
    counter = new PostgresStatementCounter(server, sockets, (server.address() as net.AddressInfo).port);
    return counter;
  }
}
