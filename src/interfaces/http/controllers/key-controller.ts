import type { CreateKey, ListKeys, RevokeKey } from '../../../application';
import type { Actor } from '../../../domain';
import { type CreatedKeyJson, type KeyJson, presentCreatedKey, presentKey } from '../key-presenters';
import type { CreateKeyBody, RevokeKeyBody } from '../validation/key-schemas';

/** The admins' key routes: create (the token shown once), list, revoke. */
export class KeyController {
  constructor(
    private readonly createKey: CreateKey,
    private readonly listKeys: ListKeys,
    private readonly revokeKey: RevokeKey,
  ) {}

  async create(body: CreateKeyBody, actor: Actor): Promise<CreatedKeyJson> {
    return presentCreatedKey(await this.createKey.execute(body, actor));
  }

  async list(actor: Actor): Promise<KeyJson[]> {
    return (await this.listKeys.execute(actor)).map(presentKey);
  }

  async revoke(body: RevokeKeyBody, actor: Actor): Promise<KeyJson> {
    return presentKey(await this.revokeKey.execute(body, actor));
  }
}
