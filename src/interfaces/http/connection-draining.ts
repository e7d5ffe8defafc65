import type { Server } from 'node:http';
import net, { type Socket } from 'node:net';

/** How long a connection that has not sent its first request yet may take to send it once stopping. */
const FIRST_REQUEST_GRACE_MS = 1_000;
const SWEEP_EVERY_MS = 25;

interface ConnectionState {
  openedAt: number;
  served: number;
  inFlight: number;
}

export interface ConnectionDrainer {
  /**
   * Stops accepting connections, lets every request in flight finish, closes connections as
   * they fall idle, and resolves when none is left: `drained`, or `forced` if some were still
   * open at the deadline and had to be cut.
   */
  stop(deadlineMs: number): Promise<'drained' | 'forced'>;
}

/**
 * Follows every connection of the server from the start, so that stopping can tell a
 * connection that is idle after its answers (closed at once) from one just accepted whose
 * request is still on its way (given a moment to arrive and be served). Node's own
 * server.close() and the shutdown libraries close both alike, and the second one loses a
 * request that the client has already sent: the deploy-under-load test saw exactly that.
 */
export function drainConnectionsOf(server: Server): ConnectionDrainer {
  const connections = new Map<Socket, ConnectionState>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { openedAt: Date.now(), served: 0, inFlight: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.inFlight++;
    response.once('close', () => {
      state.inFlight--;
      state.served++;
    });
  });

  return {
    async stop(deadlineMs) {
      const deadline = Date.now() + deadlineMs;
      await stopListening(server);
      return new Promise((resolve) => {
        const sweep = () => {
          const now = Date.now();
          for (const [socket, state] of connections) {
            const waitingForFirstRequest = state.served === 0 && now - state.openedAt < FIRST_REQUEST_GRACE_MS;
            if (state.inFlight === 0 && !waitingForFirstRequest) socket.destroy();
          }
          if (connections.size === 0) return resolve('drained');
          if (now >= deadline) {
            for (const socket of connections.keys()) socket.destroy();
            return resolve('forced');
          }
          setTimeout(sweep, SWEEP_EVERY_MS);
        };
        sweep();
      });
    },
  };
}

/**
 * Closes the listening socket in the event loop's check phase, right after its poll phase has
 * accepted the connections the kernel had queued (closed from a timer, more of those would be
 * reset instead of served; a connection that completes its handshake in between still is, as
 * with any server: its request never reached the process). net.Server's close, not
 * http.Server's, which would also cut idle connections at once.
 */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      net.Server.prototype.close.call(server);
      resolve();
    }),
  );
}
