import type { Author } from './author';
import type { Role } from './role';

/**
 * Who asks, as every use case is told:
 * - `open`: no key and no API_TOKEN exist, so the original's open rules hold for everyone;
 * - `anonymous`: keys or a token exist, and the request carried none: it may read what is published;
 * - `key`: a valid key (or API_TOKEN: keyId null, an admin without an author).
 */
export type Actor =
  | { readonly kind: 'open' }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'key'; readonly keyId: string | null; readonly role: Role; readonly author: Author | null };

export const OPEN_ACTOR: Actor = { kind: 'open' };
export const ANONYMOUS_ACTOR: Actor = { kind: 'anonymous' };
