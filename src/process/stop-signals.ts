/**
 * SIGTERM and SIGINT, listened to from the process's first moment: main.ts imports this module
 * before any other. Without a listener, a signal's default action kills the process, and a
 * worker killed so while it was still loading, connecting or migrating made the cluster primary
 * count it as failed and exit 1, though it had served nothing. Until the process hands over its
 * own stop (serve() once it listens, the cluster primary before it forks), a signal ends it at
 * once with exit 0: nothing was served, so nothing is cut.
 *
 * Only the first signal counts, later ones are ignored: with a one-time listener, a second
 * signal found none and its default action killed the process in the middle of its drain (Ctrl+C
 * in a terminal reaches each worker twice: from the terminal, and passed on by the primary).
 */
type Stop = (signal: NodeJS.Signals) => void;

let stop: Stop = () => process.exit(0);
let received = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (received) return;
    received = true;
    stop(signal);
  });
}

/** From now on, the first SIGTERM or SIGINT calls `handler` (an earlier one has already ended the process). */
export function onStopSignal(handler: Stop): void {
  stop = handler;
}
