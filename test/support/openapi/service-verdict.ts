/**
 * The service's verdict on a request, from its answer: refused as input the document does not
 * allow (400, 415, or an unknown route's 404), or taken (a success, or an answer about the data:
 * no such article, a changed one, a reused key). A reference by id to a tag or category that
 * does not exist is a 400 about the data too: no document can say which ids exist.
 */
export function serviceTookRequest(status: number, message: string): boolean {
  if (status === 400 && /^(tag|category): no (tag|category) with id /.test(message)) return true;
  if (status === 404) return !message.startsWith('No route for ');
  return status !== 400 && status !== 415;
}

/** The `message` of a wrapped answer's text, or '' when it is not one. */
export function wrappedMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : '';
  } catch {
    return '';
  }
}
