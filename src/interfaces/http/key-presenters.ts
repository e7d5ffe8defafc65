import { z } from 'zod';
import type { CreatedKey, StoredKey } from '../../application';
import { ROLES } from '../../domain';
import { authorJson, presentAuthor } from './presenters';

const EXAMPLE_TIME = '2026-11-27T10:00:00.000Z';
const EXAMPLE_AUTHOR = { id: 'a8k2m4p6r8t0v2x4z6b8d0f2', name: 'Ada Lovelace', slug: 'ada-lovelace' };
const EXAMPLE_KEY = {
  id: 'k1x9a2b3c4d5e6f7g8h9i0j1',
  author: EXAMPLE_AUTHOR,
  role: 'author',
  prefix: 'blog_Xy3kP9q',
  createdAt: EXAMPLE_TIME,
  expiresAt: null,
};

export const keyJson = z
  .object({
    id: z.string().meta({ example: 'k1x9a2b3c4d5e6f7g8h9i0j1' }),
    author: authorJson,
    role: z.enum(ROLES),
    prefix: z
      .string()
      .meta({ description: "The token's first 12 characters, to tell keys apart", example: 'blog_Xy3kP9q' }),
    createdAt: z.iso.datetime().meta({ example: EXAMPLE_TIME }),
    expiresAt: z.iso.datetime().nullable().meta({ description: 'null: never expires', example: null }),
    revokedAt: z.iso.datetime().nullable().meta({ description: 'null: not revoked', example: null }),
    lastUsedAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When a request last carried it, recorded up to a minute late', example: EXAMPLE_TIME }),
  })
  .meta({
    id: 'Key',
    description: 'A key, never its token',
    example: { ...EXAMPLE_KEY, revokedAt: null, lastUsedAt: EXAMPLE_TIME },
  });

export const createdKeyJson = z
  .object({
    id: keyJson.shape.id,
    author: authorJson,
    role: keyJson.shape.role,
    token: z.string().meta({
      description: 'The bearer token: shown here once, stored nowhere (only its SHA-256)',
      example: 'blog_Xy3kP9qLmN0pQrStUvWxYz0123456789abcdefghij',
    }),
    prefix: keyJson.shape.prefix,
    createdAt: keyJson.shape.createdAt,
    expiresAt: keyJson.shape.expiresAt,
  })
  .meta({
    id: 'CreatedKey',
    description: 'A new key with its token',
    example: { ...EXAMPLE_KEY, token: 'blog_Xy3kP9qLmN0pQrStUvWxYz0123456789abcdefghij' },
  });

export type KeyJson = z.infer<typeof keyJson>;
export type CreatedKeyJson = z.infer<typeof createdKeyJson>;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function presentKey(key: StoredKey): KeyJson {
  return {
    id: key.id,
    author: presentAuthor(key.author),
    role: key.role,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}

/** The contract's order: id, author, role, token, prefix, createdAt, expiresAt. */
export function presentCreatedKey({ key, token }: CreatedKey): CreatedKeyJson {
  return {
    id: key.id,
    author: presentAuthor(key.author),
    role: key.role,
    token,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: iso(key.expiresAt),
  };
}
