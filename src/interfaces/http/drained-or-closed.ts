import type { EventEmitter } from 'node:events';

/**
 * Until a writable whose buffer is full drains, or closes (a client gone never drains); it
 * listens to neither afterwards, so a long answer waiting many times adds no listeners.
 */
export function drainedOrClosed(writable: EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      writable.off('drain', done);
      writable.off('close', done);
      resolve();
    };
    writable.on('drain', done);
    writable.on('close', done);
  });
}
