import type { Response } from 'express';
import { drainedOrClosed } from './drained-or-closed';

const OPENING = '{"statusCode":10000,"data":[';
const CLOSING = '],"message":"Success"}';

/** The whole answer writeStreamedList sends for these items, as one text. */
export function wrappedListText(items: readonly string[]): string {
  return `${OPENING}${items.join(',')}${CLOSING}`;
}

/**
 * Answers the success wrapper around a list while reading it, so that memory holds one batch
 * whatever the length of the list. The first batch is read before the first byte is sent: until
 * then a failure is an ordinary wrapped error (thrown to the error handler). After it the
 * status is sent and cannot change, so a failure cuts the connection: the client sees a
 * truncated body, never a valid-looking shorter list; the error goes to the request's log line.
 * A client that goes away stops the reading, and the batches are always closed. The list's
 * headers are set with the status.
 */
export async function writeStreamedList(
  response: Response,
  status: number,
  /** The items of each batch as JSON texts. */
  batches: AsyncGenerator<readonly string[], unknown>,
  /** Asked once the first batch is read. */
  headers: () => Readonly<Record<string, string>> = () => ({}),
): Promise<void> {
  let next = await batches.next();
  let closed = false;
  const onClose = () => {
    closed = true;
  };
  response.once('close', onClose);
  try {
    response.set(headers()).status(status).type('application/json');
    await write(response, OPENING);
    let first = true;
    while (!next.done && !closed) {
      if (next.value.length > 0) {
        await writeInPieces(response, next.value, first);
        first = false;
      }
      if (closed) break;
      next = await batches.next();
    }
    if (!closed) response.end(CLOSING);
  } catch (error) {
    (response as { err?: unknown }).err = error;
    response.destroy();
  } finally {
    response.off('close', onClose);
    await batches.return(undefined);
  }
}

/** Writes a chunk; when the socket's buffer is full, waits until it drains (or the client is gone). */
function write(response: Response, chunk: string): Promise<void> {
  if (chunk.length === 0 || response.destroyed) return Promise.resolve();
  if (response.write(chunk)) return Promise.resolve();
  return drainedOrClosed(response);
}

/**
 * The most characters a written piece of a batch holds. V8 puts a string over 128 KB in its
 * large-object space, which only a full collection frees: a batch joined whole (200 articles are
 * about 180 KB) made each batch of a 100,000-article list old-generation garbage, twice (joined,
 * then flattened with its comma), and the heap grew to hold it between full collections.
 */
export const PIECE_CHARS = 32_768;

/**
 * Writes a batch's items, after a comma unless they begin the list, in pieces of at most
 * PIECE_CHARS characters, each as `write` does; an item of PIECE_CHARS or more is a piece of its
 * own, written as it is after its comma (a run of articles, article-json-runs.ts: joined with
 * its comma it would be copied whole once more). Not corked:
 * on Node.js 22 and 24 a corked response answers `false` past its high-water mark and then, its chunks
 * leaving in one write the socket takes whole, never emits `drain`.
 */
async function writeInPieces(response: Response, items: readonly string[], first: boolean): Promise<void> {
  for (const text of pieces(items, first)) await write(response, text);
}

/** The items joined by commas, a piece whenever the next item would take it past PIECE_CHARS. */
function* pieces(items: readonly string[], first: boolean): Generator<string> {
  // A leading '' joins to the comma before the batch without a second copy of the piece.
  let piece: string[] = first ? [] : [''];
  let chars = 0;
  for (const item of items) {
    if (item.length >= PIECE_CHARS) {
      // Its comma ends the piece before it.
      if (piece.length > 0) {
        piece.push('');
        yield piece.join(',');
      }
      yield item;
      piece = [''];
      chars = 0;
      continue;
    }
    if (chars > 0 && chars + 1 + item.length > PIECE_CHARS) {
      yield piece.join(',');
      piece = [''];
      chars = 0;
    }
    piece.push(item);
    chars += item.length + 1;
  }
  yield piece.join(',');
}
