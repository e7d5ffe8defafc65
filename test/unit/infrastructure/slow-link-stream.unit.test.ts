import { EventEmitter } from 'node:events';
import { StorageUnavailableError } from '../../../src/domain';
import { withLiterals } from '../../../src/infrastructure/persistence/typeorm/article-repository/cursor-stream';
import { withinIdleDeadline } from '../../../src/infrastructure/persistence/typeorm/storage-deadline';

describe('withinIdleDeadline: the deadline runs from the last bytes', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const later = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve('rows'), ms));

  it('lets an answer that keeps arriving finish past the deadline', async () => {
    const socket = new EventEmitter();
    const answer = withinIdleDeadline(later(5_000), 2_000, socket);
    for (let at = 1_000; at < 5_000; at += 1_000) {
      await jest.advanceTimersByTimeAsync(1_000);
      socket.emit('data', Buffer.alloc(1));
    }
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(answer).resolves.toBe('rows');
    expect(socket.listenerCount('data')).toBe(0);
  });

  it('gives up after the deadline of silence', async () => {
    const socket = new EventEmitter();
    const answer = withinIdleDeadline(later(60_000), 2_000, socket);
    const settled = expect(answer).rejects.toBeInstanceOf(StorageUnavailableError);
    await jest.advanceTimersByTimeAsync(1_500);
    socket.emit('data', Buffer.alloc(1));
    await jest.advanceTimersByTimeAsync(2_000);
    await settled;
    expect(socket.listenerCount('data')).toBe(0);
  });
});

describe('withLiterals: a stream statement for the simple protocol', () => {
  it('writes integers, null and quoted text in place of the parameters', () => {
    expect(withLiterals('SELECT 1 WHERE a.id > $1 AND t.name = $3 LIMIT $2', [0, null, "it's \\ ok"])).toBe(
      // pg's escapeLiteral: a backslash makes it an escape string (E'…'), whatever standard_conforming_strings says.
      "SELECT 1 WHERE a.id > 0 AND t.name =  E'it''s \\\\ ok' LIMIT NULL",
    );
    // $10 is not $1 followed by 0.
    const ten = Array.from({ length: 10 }, (_, index) => index + 1);
    expect(withLiterals('$1, $10', ten)).toBe('1, 10');
  });

  it('leaves quoted text alone, and refuses a value it has no literal for', () => {
    expect(withLiterals("SELECT '$1' AS kind, $1", [7])).toBe("SELECT '$1' AS kind, 7");
    expect(() => withLiterals('a = $1', [1.5])).toThrow('no literal');
    expect(() => withLiterals('a = $2', [1])).toThrow('no literal');
  });
});
