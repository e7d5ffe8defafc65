import type { KeyRepository } from '../../../src/application';
import { type OpenContractSubject, useContractStore } from '../article-repository/subject';
import { aNewKey } from './new-key';

/**
 * Every expectation of the KeyRepository port. Each adapter's contract test runs it unchanged
 * on the storage its articles use (see articleRepositoryContract).
 */
export function keyRepositoryContract(open: OpenContractSubject): void {
  describe('KeyRepository contract', () => {
    let keys: KeyRepository;
    useContractStore(open, (store) => {
      keys = store.keys;
    });

    it('stores a key with a new author and finds it by its token hash, never by another', async () => {
      const key = aNewKey({ role: 'editor', expiresAt: new Date('2027-05-01T10:00:00.999Z') });
      const created = await keys.create(key);
      expect(created).toEqual({
        id: key.id,
        prefix: key.prefix,
        role: 'editor',
        author: { id: expect.any(String), name: 'Ada Lovelace', slug: 'ada-lovelace' },
        createdAt: key.createdAt,
        expiresAt: key.expiresAt,
        revokedAt: null,
        lastUsedAt: null,
      });
      await expect(keys.findByTokenHash(key.tokenHash)).resolves.toEqual(created);
      await expect(keys.findByTokenHash('0'.repeat(64))).resolves.toBeNull();
    });

    it('finds the author by name: two keys, one author', async () => {
      const first = await keys.create(aNewKey({ authorName: 'Grace Hopper', role: 'contributor' }));
      const second = await keys.create(aNewKey({ authorName: 'Grace Hopper', role: 'admin' }));
      expect(second.author).toEqual(first.author);
      expect(first.author.slug).toBe('grace-hopper');
      const listed = await keys.list();
      expect(listed.map((key) => key.author.id)).toEqual([first.author.id, first.author.id]);
    });

    it('gives concurrent authors whose names make one slug a slug each', async () => {
      const names = ['Ann Lee', 'ann lee', 'Ann-Lee', 'ANN LEE', 'Ann  Lee', 'ann_lee'];
      const created = await Promise.all(names.map((authorName) => keys.create(aNewKey({ authorName }))));
      const slugs = created.map((key) => key.author.slug).sort();
      expect(slugs).toEqual(['ann-lee', 'ann-lee-2', 'ann-lee-3', 'ann-lee-4', 'ann-lee-5', 'ann-lee-6']);
      expect(new Set(created.map((key) => key.author.id)).size).toBe(names.length);
      expect(created.map((key) => key.author.name)).toEqual(names);
    });

    it('creates one author for concurrent keys of one new name', async () => {
      const created = await Promise.all(
        Array.from({ length: 5 }, () => keys.create(aNewKey({ authorName: 'Linus Pauling' }))),
      );
      expect(new Set(created.map((key) => key.author.id)).size).toBe(1);
      expect(created[0]?.author.slug).toBe('linus-pauling');
    });

    it('revokes a key once: a second revoke keeps the first time; an unknown id is null', async () => {
      const key = aNewKey();
      await keys.create(key);
      const first = new Date('2026-06-01T00:00:00.001Z');
      await expect(keys.revoke('no-such-key', first)).resolves.toBeNull();
      expect((await keys.revoke(key.id, first))?.revokedAt).toEqual(first);
      const again = await keys.revoke(key.id, new Date('2026-07-01T00:00:00.000Z'));
      expect(again?.revokedAt).toEqual(first);
      expect((await keys.findByTokenHash(key.tokenHash))?.revokedAt).toEqual(first);
    });

    it('tells how many keys exist and which were revoked at or after a time', async () => {
      await expect(keys.changesSince(new Date(0))).resolves.toEqual({ keys: 0, revoked: [] });
      const [early, late, kept] = [aNewKey(), aNewKey(), aNewKey()];
      for (const key of [early, late, kept]) await keys.create(key);
      await keys.revoke(early.id, new Date('2026-06-01T00:00:00.000Z'));
      await keys.revoke(late.id, new Date('2026-06-02T00:00:00.000Z'));
      const changes = await keys.changesSince(new Date('2026-06-02T00:00:00.000Z'));
      expect(changes).toEqual({ keys: 3, revoked: [late.id] });
      const all = await keys.changesSince(new Date('2026-06-01T00:00:00.000Z'));
      expect([...all.revoked].sort()).toEqual([early.id, late.id].sort());
    });

    it('records last uses in one call: a later time wins, an earlier one never moves it back', async () => {
      const [one, two] = [aNewKey(), aNewKey()];
      await keys.create(one);
      await keys.create(two);
      const t1 = new Date('2026-06-01T00:00:00.001Z');
      const t2 = new Date('2026-06-01T00:01:00.002Z');
      await keys.recordUses(new Map());
      await keys.recordUses(
        new Map([
          [one.id, t2],
          [two.id, t1],
          ['unknown', t1],
        ]),
      );
      await keys.recordUses(
        new Map([
          [one.id, t1],
          [two.id, t2],
        ]),
      );
      const used = new Map((await keys.list()).map((key) => [key.id, key.lastUsedAt]));
      expect(used).toEqual(
        new Map([
          [one.id, t2],
          [two.id, t2],
        ]),
      );
    });

    it('lists every key oldest first, without its token hash', async () => {
      const newer = aNewKey({ createdAt: new Date('2026-05-02T00:00:00.000Z'), authorName: 'B' });
      const older = aNewKey({ createdAt: new Date('2026-05-01T00:00:00.000Z'), authorName: 'A' });
      await keys.create(newer);
      await keys.create(older);
      const listed = await keys.list();
      expect(listed.map((key) => key.id)).toEqual([older.id, newer.id]);
      expect(listed.every((key) => !('tokenHash' in key))).toBe(true);
    });
  });
}
