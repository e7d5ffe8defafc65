import type { Response } from 'express';

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
        await write(response, `${first ? '' : ','}${next.value.join(',')}`);
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
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
