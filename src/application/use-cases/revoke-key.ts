import { type Actor, KeyNotFoundError } from '../../domain';
import { requireKeyAdmin } from '../access/article-access';
import type { AuthenticateRequest } from '../access/authenticate-request';
import type { Clock } from '../ports/clock';
import type { KeyRepository, StoredKey } from '../ports/key-repository';

/**
 * Revokes a key: refused at once on this instance, within AuthenticationSettings.freshForMs on
 * every other. Revoking it again keeps its first time. Admins only.
 */
export class RevokeKey {
  constructor(
    private readonly keys: KeyRepository,
    private readonly clock: Clock,
    private readonly authentication: AuthenticateRequest | null,
  ) {}

  async execute(input: { id: string }, actor: Actor): Promise<StoredKey> {
    requireKeyAdmin(actor);
    const revoked = await this.keys.revoke(input.id, this.clock.now());
    if (!revoked) throw new KeyNotFoundError(input.id);
    this.authentication?.forget(revoked.id);
    return revoked;
  }
}
