import type { Response } from 'express';

/** The part of an Express response that handlers here use, recording what they answer. */
export function recordingResponse(): { response: Response; answer: { status?: number; body?: unknown } } {
  const answer: { status?: number; body?: unknown } = {};
  const response = {
    headersSent: false,
    locals: {},
    status(code: number) {
      answer.status = code;
      return response;
    },
    json(body: unknown) {
      answer.body = body;
      return response;
    },
  };
  return { response: response as unknown as Response, answer };
}
