import {
  type Actor,
  ArticleNotFoundError,
  type Author,
  articleStatusAt,
  ForbiddenError,
  type PublicationChange,
  type PublicationInput,
  roleAtLeast,
  UnauthenticatedError,
} from '../../domain';

/** What the rules read of an article: its publication and its author. */
export interface GuardedArticle {
  readonly id: number;
  readonly publishedAt: Date | null;
  readonly author: Author | null;
}

const NO_PUBLISHING = 'a contributor may not publish or schedule an article';

/** The refusal of `what` without a key or token (a 401): one wording for the HTTP layer and the rules. */
export const needsCredential = (what: string) => `${what} needs the header Authorization: Bearer <key or API token>`;

function ownedBy(actor: Actor, article: GuardedArticle): boolean {
  return actor.kind === 'key' && actor.author !== null && article.author?.id === actor.author.id;
}

/**
 * Whether the actor may change or delete the article: everyone under the open rules; an editor
 * or admin any; an author its author's; a contributor its author's drafts.
 */
export function mayEdit(actor: Actor, article: GuardedArticle): boolean {
  if (actor.kind === 'open') return true;
  if (actor.kind === 'anonymous') return false;
  if (roleAtLeast(actor.role, 'editor')) return true;
  if (!ownedBy(actor, article)) return false;
  return actor.role === 'author' || article.publishedAt === null;
}

/** A published article anyone may read; a draft or scheduled one only who may edit it (anyone, when open). */
export function mayRead(actor: Actor, article: GuardedArticle, moment: Date): boolean {
  return articleStatusAt(article.publishedAt, moment) === 'published' || mayEdit(actor, article);
}

/** A write needs a credential once keys or API_TOKEN exist. */
export function requireCredential(actor: Actor, what: string): void {
  if (actor.kind === 'anonymous') throw new UnauthenticatedError(needsCredential(what));
}

/** `what` needs at least `least` (open rules allow everything). */
export function requireRole(actor: Actor, least: 'editor' | 'admin', what: string): void {
  requireCredential(actor, what);
  if (actor.kind === 'key' && !roleAtLeast(actor.role, least)) {
    throw new ForbiddenError(`${what} needs the role ${least} or above; this key is ${actor.role}`);
  }
}

/**
 * Keys and webhooks are managed by admins only, and never under the open rules: the first admin
 * key comes from `npm run keys` or API_TOKEN, so that nobody can mint one, or point the service's
 * events somewhere, on a deployment left open. `what`: "Managing keys", "Managing webhooks".
 */
export function requireAdmin(actor: Actor, what: string): void {
  if (actor.kind !== 'key') throw new UnauthenticatedError(needsCredential(what));
  requireRole(actor, 'admin', what.toLowerCase());
}

/** requireAdmin for the keys' routes. */
export function requireKeyAdmin(actor: Actor): void {
  requireAdmin(actor, 'Managing keys');
}

/**
 * A write to an existing article: one the actor may not read is missing to it (404, nothing
 * said of its existence); one it may read but not edit is a 403.
 */
export function checkMayWrite(actor: Actor, article: GuardedArticle, moment: Date, what: string): void {
  requireCredential(actor, what);
  if (!mayRead(actor, article, moment)) throw new ArticleNotFoundError(article.id);
  if (!mayEdit(actor, article)) {
    const role = actor.kind === 'key' ? actor.role : 'reader';
    throw new ForbiddenError(`this key (${role}) may not ${what} article ${article.id}`);
  }
}

/**
 * A create's publication as the actor may ask it: a contributor's create is a draft unless it
 * asks otherwise, and asking to publish or schedule is refused.
 */
export function publicationOfCreate(actor: Actor, input: PublicationInput): PublicationInput {
  requireCredential(actor, 'This write');
  if (actor.kind !== 'key' || actor.role !== 'contributor') return input;
  const publishes = input.visible === true || (input.publishedAt !== undefined && input.publishedAt !== null);
  if (publishes) throw new ForbiddenError(NO_PUBLISHING);
  return input.visible === undefined && input.publishedAt === undefined ? { ...input, visible: false } : input;
}

/** An update's change of publication: a contributor may only keep an article a draft. */
export function checkPublicationChange(actor: Actor, change: PublicationChange | undefined): void {
  if (actor.kind !== 'key' || actor.role !== 'contributor' || change === undefined) return;
  if (change.kind === 'publish-now' || change.publishedAt !== null) throw new ForbiddenError(NO_PUBLISHING);
}
