import type { z } from 'zod';
import { ValidationError } from '../../../domain';

const READ_ONLY_FIELDS = new Set(['id', 'createdAt', 'updatedAt', 'status', 'readingTime']);

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  array: 'an array',
  object: 'a JSON object',
};

/** Turns the first problem zod found into a ValidationError that names the field. */
export function toValidationError(error: z.ZodError): ValidationError {
  const issue = error.issues[0];
  if (!issue) return new ValidationError('body', 'is invalid');
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      // A client's key is echoed back, but never more than 64 characters of it.
      const key = (issue.keys[0] ?? '').slice(0, 64);
      const name = field === 'body' ? key : `${field}.${key}`;
      return new ValidationError(name, READ_ONLY_FIELDS.has(name) ? 'is read-only' : 'is not a known field');
    }
    case 'invalid_type':
      if (field === 'body') return new ValidationError(field, 'must be a JSON object');
      if (issue.input === undefined) return new ValidationError(field, 'is required');
      return new ValidationError(field, `must be ${EXPECTED[issue.expected] ?? issue.expected}`);
    case 'too_big':
      return new ValidationError(
        field,
        issue.origin === 'array' ? `must have at most ${issue.maximum} items` : `must be at most ${issue.maximum}`,
      );
    case 'too_small':
      return new ValidationError(field, `must be at least ${issue.minimum}`);
    default:
      return new ValidationError(field, issue.message);
  }
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
