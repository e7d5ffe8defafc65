import { type Actor, authorName, isRole, type Role, ValidationError } from '../../domain';
import { requireKeyAdmin } from '../access/article-access';
import type { AuthenticateRequest } from '../access/authenticate-request';
import type { Clock } from '../ports/clock';
import type { KeyRepository, StoredKey } from '../ports/key-repository';
import type { TokenSecrets } from '../ports/token-secrets';

export interface CreateKeyInput {
  author: string;
  role: string;
  /** Days until it expires: > 0 and ≤ 3650, fractions allowed; absent: never. */
  expiresInDays?: number;
}

/** A new key and its token: the only time the token is shown. */
export interface CreatedKey {
  readonly key: StoredKey;
  readonly token: string;
}

export const KEY_RULES = { maxExpiresInDays: 3650, prefixLength: 12 } as const;
const DAY_MS = 86_400_000;

/** Makes a key for an author (found or created by name) with a role; admins only (or the operator). */
export class CreateKey {
  constructor(
    private readonly keys: KeyRepository,
    private readonly secrets: TokenSecrets,
    private readonly clock: Clock,
    private readonly authentication: AuthenticateRequest | null,
  ) {}

  /** The input is checked first (a 400 says nothing of who asks), then who asks. */
  async execute(input: CreateKeyInput, actor: Actor): Promise<CreatedKey> {
    const name = authorName('author', input.author);
    const role = checkRole(input.role);
    const createdAt = this.clock.now();
    const expiresAt = expiryOf(input.expiresInDays, createdAt);
    requireKeyAdmin(actor);
    const token = this.secrets.newToken();
    const key = await this.keys.create({
      id: this.secrets.newId(),
      tokenHash: this.secrets.hashOf(token),
      prefix: token.slice(0, KEY_RULES.prefixLength),
      role,
      authorName: name,
      createdAt,
      expiresAt,
    });
    this.authentication?.keyCreated();
    return { key, token };
  }
}

function checkRole(text: string): Role {
  if (!isRole(text)) throw new ValidationError('role', 'must be one of contributor, author, editor, admin');
  return text;
}

function expiryOf(days: number | undefined, from: Date): Date | null {
  if (days === undefined) return null;
  if (!Number.isFinite(days) || days <= 0 || days > KEY_RULES.maxExpiresInDays) {
    throw new ValidationError('expiresInDays', `must be a number above 0 and at most ${KEY_RULES.maxExpiresInDays}`);
  }
  return new Date(from.getTime() + Math.round(days * DAY_MS));
}
