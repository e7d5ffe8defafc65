import { ValidationError } from '../../src/domain';

/** Runs a synchronous check that must fail with a ValidationError, and answers that error. */
export function validationErrorOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError, but nothing was thrown');
}
