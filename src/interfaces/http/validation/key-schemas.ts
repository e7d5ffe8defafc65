import { z } from 'zod';
import { KEY_RULES } from '../../../application';
import { AUTHOR_RULES, ROLES } from '../../../domain';
import { trimmedTextPattern } from './documented-patterns';

/**
 * The key routes' bodies. The author's name rule (trimmed, 1..64 code points) and the role are
 * the domain's and the use case's to check; these say so in the document.
 */
export const createKeyBody = z
  .strictObject({
    author: z.string().meta({
      description: 'The author the key writes as: found by name, or created (trimmed; 1 to 64 characters)',
      example: 'Ada Lovelace',
      override: { pattern: trimmedTextPattern(AUTHOR_RULES.nameMaxLength) },
    }),
    role: z.enum(ROLES).meta({ description: 'What the key may do', example: 'author' }),
    expiresInDays: z
      .number()
      .gt(0)
      .max(KEY_RULES.maxExpiresInDays)
      .optional()
      .meta({ description: 'Days until the key expires (fractions allowed); absent: never', example: 90 }),
  })
  .meta({ id: 'CreateKeyBody', example: { author: 'Ada Lovelace', role: 'author', expiresInDays: 90 } });

export const revokeKeyBody = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: 'The id `POST /key/create` answered', example: 'k1x9a2b3c4d5e6f7g8h9i0j1' }),
  })
  .meta({ id: 'RevokeKeyBody', example: { id: 'k1x9a2b3c4d5e6f7g8h9i0j1' } });

export type CreateKeyBody = z.output<typeof createKeyBody>;
export type RevokeKeyBody = z.output<typeof revokeKeyBody>;
