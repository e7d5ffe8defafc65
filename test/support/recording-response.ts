import type { Response } from 'express';

/** The part of an Express response that handlers here use, recording what they answer. */
export function recordingResponse(): {
  response: Response;
  answer: { status?: number; body?: unknown; headers?: Record<string, string> };
} {
  const answer: { status?: number; body?: unknown; headers?: Record<string, string> } = {};
  const response = {
    headersSent: false,
    locals: {},
    set(name: string, value: string) {
      answer.headers = { ...answer.headers, [name]: value };
      return response;
    },
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
