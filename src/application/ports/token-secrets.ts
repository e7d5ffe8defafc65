/** Makes and recognises key tokens; an adapter, so that the use cases stay free of crypto. */
export interface TokenSecrets {
  /** A new token: `blog_` and the base64url text of 32 random bytes. */
  newToken(): string;
  /** SHA-256 of the token, hex. */
  hashOf(token: string): string;
  /** Whether two hashes are equal, compared in constant time. */
  sameHash(a: string, b: string): boolean;
  /** A new id (cuid2). */
  newId(): string;
}
