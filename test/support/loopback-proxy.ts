import type net from 'node:net';

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
