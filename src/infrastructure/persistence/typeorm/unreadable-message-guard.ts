import type { Duplex } from 'node:stream';

/**
 * The error a connection ends with when a message from the server cannot be read: class 08
 * (connection exception), so that the statement in flight is answered as storage unavailable
 * and a read is tried on another node.
 */
export class UnreadableServerMessageError extends Error {
  readonly code = '08P01';

  constructor(cause: unknown) {
    // The parser's own words go into the message: a 503's log line shows its cause's message.
    super(`a message from the database server could not be read (${String(cause)}); the connection is closed`, {
      cause,
    });
    this.name = 'UnreadableServerMessageError';
  }
}

/**
 * Makes a message that node-postgres's parser cannot read end that connection instead of the
 * process. The parser runs inside the socket's 'data' event, where nothing catches what it
 * throws. PgBouncer, when its server connection dies while a row is passing through, has already
 * forwarded part of the row and then writes its own FATAL "server conn crashed?" and closes:
 * where the rest of the row fits in the error's bytes, the parser reads them as field lengths and
 * throws a RangeError (node-postgres issue 2053). A roll-nodes run lost an instance to it.
 *
 * Destroying the socket with the error fails the statement in flight and the pool drops the
 * client, as for any lost connection. Whatever else a 'data' listener throws means the same: the
 * parser is mid-stream, so the connection cannot be trusted for another message.
 */
export function endConnectionOnUnreadableMessage(socket: Duplex): void {
  const emit = socket.emit;
  socket.emit = function emitGuarded(this: Duplex, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return emit.call(this, event, ...args);
    try {
      return emit.call(this, event, ...args);
    } catch (error) {
      this.destroy(new UnreadableServerMessageError(error));
      return true;
    }
  } as Duplex['emit'];
}
