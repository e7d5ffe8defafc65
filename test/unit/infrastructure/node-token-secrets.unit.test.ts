import { createHash } from 'node:crypto';
import { NodeTokenSecrets } from '../../../src/infrastructure/security/node-token-secrets';

describe('NodeTokenSecrets', () => {
  const secrets = new NodeTokenSecrets();

  it('makes tokens of `blog_` and 32 random bytes in base64url, each new', () => {
    const tokens = Array.from({ length: 100 }, () => secrets.newToken());
    for (const token of tokens) {
      expect(token).toMatch(/^blog_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice(5), 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('hashes a token with SHA-256, hex, and compares hashes', () => {
    const hash = secrets.hashOf('blog_abc');
    expect(hash).toBe(createHash('sha256').update('blog_abc').digest('hex'));
    expect(secrets.sameHash(hash, secrets.hashOf('blog_abc'))).toBe(true);
    expect(secrets.sameHash(hash, secrets.hashOf('blog_abd'))).toBe(false);
    expect(secrets.sameHash(hash, 'short')).toBe(false);
  });

  it('makes cuid2 ids', () => {
    expect(secrets.newId()).toMatch(/^[a-z][a-z0-9]{23}$/);
  });
});
