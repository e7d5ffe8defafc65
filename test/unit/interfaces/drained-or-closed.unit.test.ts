import { EventEmitter } from 'node:events';
import { drainedOrClosed } from '../../../src/interfaces/http/drained-or-closed';

/** Whether the promise has settled once pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('drainedOrClosed', () => {
  it('waits for the drain, then listens to nothing', async () => {
    const writable = new EventEmitter();
    const waiting = drainedOrClosed(writable);
    expect(await settled(waiting)).toBe(false);
    writable.emit('drain');
    expect(await settled(waiting)).toBe(true);
    expect(writable.listenerCount('drain') + writable.listenerCount('close')).toBe(0);
  });

  it('ends when the writable closes without draining (a client gone)', async () => {
    const writable = new EventEmitter();
    const waiting = drainedOrClosed(writable);
    writable.emit('close');
    expect(await settled(waiting)).toBe(true);
    expect(writable.listenerCount('drain') + writable.listenerCount('close')).toBe(0);
  });

  it('adds no listeners over many waits', async () => {
    const writable = new EventEmitter();
    for (let wait = 0; wait < 20; wait++) {
      const waiting = drainedOrClosed(writable);
      writable.emit(wait % 2 === 0 ? 'drain' : 'close');
      await waiting;
    }
    expect(writable.listenerCount('drain') + writable.listenerCount('close')).toBe(0);
  });
});
