import { createId } from '@paralleldrive/cuid2';

/** Ids of tags and categories: collision-resistant cuid2 strings. */
export function newTermId(): string {
  return createId();
}
