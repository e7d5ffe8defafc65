import type { Article, ArticleEvent } from '../../domain';

/**
 * How the article storage records a write's events (the transactional outbox): given to it by
 * the composition root, run inside each write's own transaction, so that an acknowledged write
 * has its events stored and a write that fails has none.
 *
 * When `recording()` is true, the storage, in the write's transaction: for an update, a delete
 * or a restore, removes the article's pending `article.published` deliveries due after `at` (a
 * schedule cancelled or moved: eventsOf emits it again when it stands); then stores a delivery
 * of each event of `eventsOf` for every subscription that takes its type, due at its
 * `occurredAt`. When it is false, no subscription exists: the write records nothing.
 */
export interface WriteEvents {
  recording(): boolean;
  eventsOf(before: Article | null, after: Article | null, at: Date): ArticleEvent[];
}

/** A storage without webhooks (tests of other things, tools): records nothing. */
export const NO_WRITE_EVENTS: WriteEvents = { recording: () => false, eventsOf: () => [] };
