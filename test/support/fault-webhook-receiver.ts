import http from 'node:http';
import { freeStablePort } from './free-port';

/**
 * ok: 204 at once; down: not listening (connection refused); error: 500 at once; slow: the
 * answer (204) only SLOW_ANSWER_MS after the request, past the sender's 10 s limit.
 */
export type ReceiverMode = 'ok' | 'down' | 'error' | 'slow';

export const SLOW_ANSWER_MS = 15_000;

/** One POST as it arrived (its body complete): when, in which mode, its `webhook-id` and body. */
export interface Arrival {
  /** performance.now() of this process, comparable with the load's records. */
  readonly at: number;
  /** Date.now(). */
  readonly date: number;
  readonly mode: ReceiverMode;
  readonly webhookId: string | undefined;
  readonly body: string;
}

/** A webhook receiver on 127.0.0.1 whose behaviour a test switches while events arrive. */
export interface FaultWebhookReceiver {
  readonly url: string;
  readonly arrivals: readonly Arrival[];
  readonly mode: ReceiverMode;
  /** Switches the mode; to and from `down`, once the port is closed or listening again. */
  setMode(mode: ReceiverMode): Promise<void>;
  /**
   * Holds every answer from now on (requests are still recorded on arrival), so that attempts
   * stay in flight; the function returned answers them all and stops holding.
   */
  hold(): () => void;
  /** Answers held at this moment: attempts in flight that wait on this receiver. */
  readonly held: number;
  close(): Promise<void>;
}

/**
 * Records every POST on arrival (a slow answer's request too: it arrived, whatever the sender
 * then makes of it). `down` closes the listening socket and every open connection, so that
 * attempts are refused; leaving it listens again on the same port.
 */
export async function startFaultWebhookReceiver(path = '/hook'): Promise<FaultWebhookReceiver> {
  const arrivals: Arrival[] = [];
  const pendingAnswers = new Set<NodeJS.Timeout>();
  let mode: ReceiverMode = 'ok';
  let held: (() => void)[] | null = null;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = request.headers['webhook-id'];
      arrivals.push({
        at: performance.now(),
        date: Date.now(),
        mode,
        webhookId: Array.isArray(header) ? header[0] : header,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (held) {
        held.push(() => {
          if (!response.destroyed) response.writeHead(mode === 'error' ? 500 : 204).end();
        });
      } else if (mode === 'slow') {
        const timer = setTimeout(() => {
          pendingAnswers.delete(timer);
          if (!response.destroyed) response.writeHead(204).end();
        }, SLOW_ANSWER_MS);
        pendingAnswers.add(timer);
      } else {
        response.writeHead(mode === 'error' ? 500 : 204).end();
      }
    });
  });
  // Below the ephemeral range: while it is down, no outgoing connection takes the port it comes back on.
  const port = await freeStablePort();
  await listen(server, port);

  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    url: `http://127.0.0.1:${port}${path}`,
    arrivals,
    get mode() {
      return mode;
    },
    get held() {
      return held?.length ?? 0;
    },
    hold() {
      const answers: (() => void)[] = [];
      held = answers;
      return () => {
        if (held === answers) held = null;
        for (const answer of answers) answer();
      };
    },
    async setMode(next) {
      if (next === mode) return;
      if (next === 'down') await stopListening();
      if (mode === 'down') await listen(server, port);
      mode = next;
    },
    async close() {
      for (const timer of pendingAnswers) clearTimeout(timer);
      if (mode !== 'down') await stopListening();
      mode = 'down';
    },
  };
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
