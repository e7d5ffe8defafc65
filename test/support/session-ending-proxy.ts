import net from 'node:net';
import { frontendMessages, isStatementMessage, LoopbackProxy, upstreamFor } from './loopback-proxy';

/**
 * A TCP proxy in front of PostgreSQL that, once armed with `endNextStatementSession()`, ends the
 * session of the next statement a client sends, before the server sees it: a session shut in
 * the middle of a query, as HAProxy's shutdown-sessions does when a server leaves or joins.
 * Every other connection and statement passes through untouched.
 */
export class SessionEndingProxy extends LoopbackProxy {
  sessionsEnded = 0;
  private armed = false;

  private constructor(server: net.Server, sockets: Set<net.Socket>, port: number) {
    super(server, sockets, port);
  }

  static async start(target: { host: string; port: number }): Promise<SessionEndingProxy> {
    const sockets = new Set<net.Socket>();
    let proxy: SessionEndingProxy | undefined;
    const server = net.createServer((client) => {
      const upstream = upstreamFor(client, target, sockets);
      upstream.pipe(client);
      let statementSent = false;
      const read = frontendMessages((type) => {
        if (isStatementMessage(type)) statementSent = true;
      });
      client.on('data', (chunk: Buffer) => {
        read(chunk);
        if (statementSent && proxy?.armed) {
          proxy.armed = false;
          proxy.sessionsEnded++;
          client.destroy();
          upstream.destroy();
          return;
        }
        statementSent = false;
        upstream.write(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new SessionEndingProxy(server, sockets, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  endNextStatementSession(): void {
    this.armed = true;
  }
}
