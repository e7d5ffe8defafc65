import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { errorHandler } from '../../../src/interfaces/http/error-mapping';
import { PIECE_CHARS, writeStreamedList } from '../../../src/interfaces/http/streamed-list';

/**
 * Batches the test controls, recording how far the writer read them and whether it closed them;
 * each item is handed to the writer as its JSON text, as the presenters do.
 */
class RecordedBatches {
  pulls = 0;
  closed = false;

  constructor(private readonly produce: (index: number) => Promise<unknown[] | null>) {}

  async *generator(): AsyncGenerator<string[]> {
    try {
      for (;;) {
        const batch = await this.produce(this.pulls++);
        if (batch === null) return;
        yield batch.map((item) => JSON.stringify(item));
      }
    } finally {
      this.closed = true;
    }
  }
}

/**
 * A server whose only route streams the given batches; `responses` lets a test watch the server
 * side, `written` holds the length of each text the writer passed to `write` and `end`.
 */
async function serve(batches: () => AsyncGenerator<string[]>) {
  const responses: Response[] = [];
  const written: number[] = [];
  const app = express();
  app.get('/list', async (_request, response) => {
    responses.push(response);
    for (const method of ['write', 'end'] as const) {
      const original = response[method].bind(response) as (chunk?: unknown) => unknown;
      (response as unknown as Record<string, unknown>)[method] = (chunk?: unknown) => {
        if (typeof chunk === 'string') written.push(chunk.length);
        return original(chunk);
      };
    }
    await writeStreamedList(response, 200, batches());
  });
  app.use(errorHandler());
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    responses,
    written,
    get: () =>
      new Promise<IncomingMessage>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/list', agent: false }, resolve).on('error', reject);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The body as far as it came, and whether the connection was cut before its end. */
function readAll(response: IncomingMessage): Promise<{ text: string; complete: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
    });
    response.on('end', () => resolve({ text, complete: response.complete }));
    response.on('error', () => resolve({ text, complete: false }));
    response.on('aborted', () => resolve({ text, complete: false }));
  });
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

describe('writeStreamedList', () => {
  it('writes the wrapper around every batch as one JSON document, then closes the batches', async () => {
    const batches = new RecordedBatches(async (index) => (index < 3 ? [{ n: index * 2 }, { n: index * 2 + 1 }] : null));
    const server = await serve(() => batches.generator());
    try {
      const response = await server.get();
      const { text, complete } = await readAll(response);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(complete).toBe(true);
      expect(text).toBe(
        '{"statusCode":10000,"data":[{"n":0},{"n":1},{"n":2},{"n":3},{"n":4},{"n":5}],"message":"Success"}',
      );
      expect(batches.closed).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('writes empty batches as nothing: no stray comma between the items around them', async () => {
    const items = [[{ n: 0 }], [], [{ n: 1 }, { n: 2 }], []];
    const server = await serve(() => new RecordedBatches(async (index) => items[index] ?? null).generator());
    try {
      const { text } = await readAll(await server.get());
      expect(text).toBe('{"statusCode":10000,"data":[{"n":0},{"n":1},{"n":2}],"message":"Success"}');
    } finally {
      await server.close();
    }
  });

  it('answers an empty list when there is no batch', async () => {
    const server = await serve(() => new RecordedBatches(async () => null).generator());
    try {
      const { text } = await readAll(await server.get());
      expect(JSON.parse(text)).toEqual({ statusCode: 10000, data: [], message: 'Success' });
    } finally {
      await server.close();
    }
  });

  it('a failure before the first byte is an ordinary wrapped error', async () => {
    const server = await serve(() =>
      new RecordedBatches(async () => {
        throw new Error('storage exploded');
      }).generator(),
    );
    try {
      const response = await server.get();
      const { text } = await readAll(response);
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(text)).toEqual({ statusCode: 10001, data: null, message: 'Internal error' });
    } finally {
      await server.close();
    }
  });

  it('a failure after the first byte cuts the connection: the client never gets a valid-looking list', async () => {
    const failure = new Error('lost the connection to the database');
    let clientReading: () => void = () => {};
    const reading = new Promise<void>((resolve) => {
      clientReading = resolve;
    });
    const batches = new RecordedBatches(async (index) => {
      // The third batch fails once the client has received the beginning of the list.
      if (index === 2) {
        await reading;
        throw failure;
      }
      return [{ n: index }];
    });
    const server = await serve(() => batches.generator());
    try {
      const response = await server.get();
      const body = readAll(response);
      response.once('data', () => clientReading());
      const { text, complete } = await body;
      expect(response.statusCode).toBe(200);
      expect(complete).toBe(false);
      expect(() => JSON.parse(text)).toThrow();
      expect(text.startsWith('{"statusCode":10000,"data":[{"n":0}')).toBe(true);
      // The request's log line reports it (request-logging.ts reads response.err).
      expect((server.responses[0] as { err?: unknown }).err).toBe(failure);
    } finally {
      await server.close();
    }
  });

  it('stops reading, and closes the batches, when the client goes away', async () => {
    let clientGone: () => void = () => {};
    const gone = new Promise<void>((resolve) => {
      clientGone = resolve;
    });
    const batches = new RecordedBatches(async (index) => {
      // The second batch is read only once the client has gone; each read lets the event loop turn.
      if (index >= 1) await gone;
      await new Promise((resolve) => setImmediate(resolve));
      return [{ n: index }];
    });
    const server = await serve(() => batches.generator());
    try {
      const response = await server.get();
      await new Promise((resolve) => response.once('data', resolve));
      response.destroy();
      const [serverSide] = server.responses;
      await until(() => serverSide?.destroyed === true);
      clientGone();
      // Either the writer stops and closes the batches, or it reads on past the second one.
      await until(() => batches.closed || batches.pulls > 2);
      expect(batches.pulls).toBe(2);
      expect(batches.closed).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('writes a large batch in pieces of at most PIECE_CHARS characters, a longer item as it is (its comma ends the piece before)', async () => {
    // V8 keeps strings over 128 KB in its old generation: a batch written as one text was garbage only a full collection frees.
    const item = 'y'.repeat(998);
    const long = 'z'.repeat(PIECE_CHARS * 2);
    const items = [[...Array(300).fill(item)], [...Array(50).fill(item), long, item]];
    const server = await serve(() => new RecordedBatches(async (index) => items[index] ?? null).generator());
    try {
      const { text, complete } = await readAll(await server.get());
      expect(complete).toBe(true);
      expect(JSON.parse(text).data).toEqual(items.flat());
      const pieces = server.written.filter((length) => length > 0);
      const longPiece = JSON.stringify(long).length;
      expect(pieces).toContain(longPiece);
      // At most PIECE_CHARS, and one more for the comma that ends the piece before the long item.
      for (const length of pieces.filter((length) => length !== longPiece))
        expect(length).toBeLessThanOrEqual(PIECE_CHARS + 1);
      // The items' characters, every comma between them, and the wrapper: nothing written twice or left out.
      expect(pieces.reduce((sum, length) => sum + length, 0)).toBe(text.length);
      expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(text.length / PIECE_CHARS));
    } finally {
      await server.close();
    }
  });

  it('reads no further while the client does not take what was written (backpressure)', async () => {
    const total = 40;
    const big = 'x'.repeat(512 * 1024);
    const batches = new RecordedBatches(async (index) => (index < total ? [big] : null));
    const server = await serve(() => batches.generator());
    try {
      const response = await server.get();
      response.pause();
      const [serverSide] = await (async () => {
        await until(() => server.responses.length > 0);
        return server.responses;
      })();
      // Either the writer waits for the client (its buffer is full), or it wrote everything without waiting.
      await until(() => serverSide?.writableNeedDrain === true || serverSide?.writableEnded === true);
      // A writer ignoring backpressure would have pulled every batch by now.
      expect(batches.pulls).toBeLessThan(total);
      response.resume();
      const { text, complete } = await readAll(response);
      expect(complete).toBe(true);
      expect(JSON.parse(text).data).toHaveLength(total);
      expect(batches.closed).toBe(true);
    } finally {
      await server.close();
    }
  });
});
