/** Base of every error the core raises on purpose; anything else is unexpected. */
export abstract class DomainError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A value breaks a rule of the domain; `field` names where it came from. */
export class ValidationError extends DomainError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export class ArticleNotFoundError extends DomainError {
  constructor(readonly articleId: number) {
    super(`article ${articleId} does not exist`);
  }
}

/** A conditional write found the article at another version than the client had read. */
export class ArticleChangedError extends DomainError {
  constructor(readonly articleId: number) {
    super(`article ${articleId} has changed since it was read; read it again`);
  }
}

/** A tag or category referenced by id that does not exist. */
export class UnknownReferenceError extends DomainError {
  constructor(
    readonly kind: 'tag' | 'category',
    readonly referenceId: string,
  ) {
    super(`${kind}: no ${kind} with id "${referenceId}"`);
  }
}

/** The storage could not be reached or did not answer in time; the request may be retried. */
export class StorageUnavailableError extends DomainError {
  constructor(options?: { cause?: unknown }) {
    super('storage is unavailable, try again later', options);
  }
}

/** An Idempotency-Key already answered a create with another body; nothing was written. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('Idempotency-Key: was already used for another request; use a new key for a new article');
  }
}

/** The first create with this Idempotency-Key has not finished yet; nothing was written. */
export class IdempotencyKeyInProgressError extends DomainError {
  constructor() {
    super('Idempotency-Key: a request with this key is still being processed; retry later');
  }
}

/** A slug that another current article has; nothing was written. */
export class SlugTakenError extends DomainError {
  constructor(readonly slug: string) {
    super(`slug: "${slug}" is taken by another article; choose another`);
  }
}

/** No current or earlier slug of any article is this one. */
export class SlugNotFoundError extends DomainError {
  constructor(readonly slug: string) {
    super(`slug: no article has the slug "${slug}"`);
  }
}

/** No revision `revision` of article `articleId` is kept (it never existed, or the retention removed it). */
export class RevisionNotFoundError extends DomainError {
  constructor(
    readonly articleId: number,
    readonly revision: number,
  ) {
    super(`revision ${revision} of article ${articleId} does not exist`);
  }
}

/**
 * No valid credential: a write (or a key's route) without one while keys or API_TOKEN exist, or
 * a bearer token that is no valid key. The message never tells which of unknown, expired or revoked.
 */
export class UnauthenticatedError extends DomainError {}

/** The key's role does not allow the request on something it may see; nothing was written. */
export class ForbiddenError extends DomainError {
  constructor(readonly reason: string) {
    super(`forbidden: ${reason}`);
  }
}

export class KeyNotFoundError extends DomainError {
  constructor(readonly keyId: string) {
    super(`key "${keyId}" does not exist`);
  }
}
