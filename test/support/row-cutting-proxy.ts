import net from 'node:net';
import { backendMessages, LoopbackProxy, upstreamFor } from './loopback-proxy';

/**
 * PgBouncer's own error when its server connection dies mid-result: FATAL 08P01 "server conn
 * crashed?", an ErrorResponse of 49 bytes.
 */
export const SERVER_CONN_CRASHED = errorResponse([
  ['S', 'FATAL'],
  ['V', 'FATAL'],
  ['C', '08P01'],
  ['M', 'server conn crashed?'],
]);

/**
 * A TCP proxy standing for PgBouncer at the moment its server connection dies while a row is
 * passing through: PgBouncer has forwarded part of the row, then writes its ErrorResponse and
 * closes the client's connection. Armed with `cutNextRow()`, it forwards the next row (DataRow)
 * the server sends up to its second-to-last field's length, then SERVER_CONN_CRASHED, and closes.
 * Where the row's last two fields fit in the error's bytes, a client reads the error as the rest
 * of the row: the error's first bytes as that field's length (over a billion), and the last field's
 * length past the end of the message. `rowsCut` counts the cuts that landed so; other rows pass.
 */
export class RowCuttingProxy extends LoopbackProxy {
  rowsCut = 0;
  private armed = false;

  private constructor(server: net.Server, sockets: Set<net.Socket>, port: number) {
    super(server, sockets, port);
  }

  static async start(target: { host: string; port: number }): Promise<RowCuttingProxy> {
    const sockets = new Set<net.Socket>();
    let proxy: RowCuttingProxy | undefined;
    const server = net.createServer((client) => {
      const upstream = upstreamFor(client, target, sockets);
      // Each message is written on its own: without this, Nagle's algorithm holds the small ones.
      client.setNoDelay(true);
      client.pipe(upstream);
      upstream.on(
        'data',
        backendMessages((message) => proxy?.pass(message, client, upstream)),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new RowCuttingProxy(server, sockets, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  cutNextRow(): void {
    this.armed = true;
  }

  private pass(message: Buffer, client: net.Socket, upstream: net.Socket): void {
    if (client.destroyed) return;
    const cut = this.armed && message[0] === DATA_ROW ? cutPoint(message) : null;
    if (cut === null) {
      client.write(message);
      return;
    }
    this.armed = false;
    this.rowsCut++;
    upstream.destroy();
    client.end(Buffer.concat([message.subarray(0, cut), SERVER_CONN_CRASHED]));
  }
}

const DATA_ROW = 0x44;

/**
 * Where the row's second-to-last field begins, if the rest of the row is no longer than
 * PgBouncer's error (so that the client's parser takes the error for the rest); else null.
 */
function cutPoint(row: Buffer): number | null {
  const fields = row.readInt16BE(5);
  if (fields < 2) return null;
  let offset = 7;
  for (let field = 0; field < fields - 2; field++) offset += 4 + Math.max(0, row.readInt32BE(offset));
  return row.length - offset <= SERVER_CONN_CRASHED.length ? offset : null;
}

function errorResponse(fields: ReadonlyArray<[string, string]>): Buffer {
  const body = Buffer.from(`${fields.map(([code, text]) => `${code}${text}\0`).join('')}\0`, 'latin1');
  const header = Buffer.alloc(5);
  header[0] = 0x45;
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}
