import { ValidationError } from './errors';

/**
 * How a create or update body asks for an article's publication: `visible` (the original
 * switch) or `publishedAt` (the time itself), never both.
 */
export interface PublicationInput {
  visible?: boolean;
  publishedAt?: Date | null;
}

/**
 * What a write does to publishedAt. `set`: that value (null makes a draft, a future time
 * schedules). `publish-now`: publishes at the write's time an article that is a draft or
 * scheduled, and leaves a published one as it is; the storage decides it atomically from the
 * stored value.
 */
export type PublicationChange =
  | { readonly kind: 'set'; readonly publishedAt: Date | null }
  | { readonly kind: 'publish-now'; readonly at: Date };

function checkOneOf(input: PublicationInput): void {
  if (input.visible !== undefined && input.publishedAt !== undefined) {
    throw new ValidationError('visible, publishedAt', 'give one of them, not both');
  }
}

/** A create's publishedAt: `visible: false` a draft, `visible: true` or neither publishes at `createdAt`. */
export function publishedAtOfNewArticle(input: PublicationInput, createdAt: Date): Date | null {
  checkOneOf(input);
  if (input.publishedAt !== undefined) return input.publishedAt;
  return input.visible === false ? null : createdAt;
}

/** An update's change of publication; undefined when the body asks none. */
export function publicationChangeOf(input: PublicationInput, at: Date): PublicationChange | undefined {
  checkOneOf(input);
  if (input.publishedAt !== undefined) return { kind: 'set', publishedAt: input.publishedAt };
  if (input.visible === true) return { kind: 'publish-now', at };
  if (input.visible === false) return { kind: 'set', publishedAt: null };
  return undefined;
}

/** The publishedAt a change leaves, from the one stored: what the SQL statement computes too. */
export function applyPublicationChange(stored: Date | null, change: PublicationChange | undefined): Date | null {
  if (change === undefined) return stored;
  if (change.kind === 'set') return change.publishedAt;
  return stored !== null && stored.getTime() <= change.at.getTime() ? stored : change.at;
}
