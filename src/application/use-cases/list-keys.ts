import type { Actor } from '../../domain';
import { requireKeyAdmin } from '../access/article-access';
import type { KeyRepository, StoredKey } from '../ports/key-repository';

/** Every key, oldest first, without tokens; admins only. */
export class ListKeys {
  constructor(private readonly keys: KeyRepository) {}

  execute(actor: Actor): Promise<StoredKey[]> {
    requireKeyAdmin(actor);
    return this.keys.list();
  }
}
