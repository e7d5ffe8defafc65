import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import type { TokenSecrets } from '../../application';

/** The `blog_` prefix makes a leaked token easy to recognise (secret scanners, logs). */
const TOKEN_PREFIX = 'blog_';
/** 256 bits of entropy: a token cannot be guessed, so a plain hash of it can be stored. */
const TOKEN_BYTES = 32;

/** Tokens from Node's CSPRNG, SHA-256 hashes, cuid2 ids (as tags' and categories' ids). */
export class NodeTokenSecrets implements TokenSecrets {
  newToken(): string {
    return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
  }

  hashOf(token: string): string {
    // One-shot: every request hashes its token, and a Hash object's setup costs more than the digest of a token.
    return hash('sha256', token, 'hex');
  }

  sameHash(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    // Hashes have one length: a different one says nothing about the token's characters.
    return left.length === right.length && timingSafeEqual(left, right);
  }

  newId(): string {
    return createId();
  }
}
