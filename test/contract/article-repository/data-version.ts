import { type ArticleRepository, STREAM_CHUNK_SIZE } from '../../../src/application';
import type { Article } from '../../../src/domain';
import { ANY_WRITER, aNewArticle, READ_MOMENT, someChanges } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';

/** The version of the visible data (visibleVersion), and the one a whole stream returns. */
export function dataVersionContract(open: OpenContractSubject): void {
  describe('the version of the data (visibleVersion, and what a whole stream returns)', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    /** Reads a stream to its end; answers what it returned. */
    async function returnedBy(stream: AsyncGenerator<Article[], string | undefined>) {
      for (;;) {
        const next = await stream.next();
        if (next.done) return next.value;
      }
    }

    it('changes with every committed write: create, keyed create, update, hiding, delete', async () => {
      const versions = [await repository.visibleVersion(READ_MOMENT)];
      const created = await repository.create(aNewArticle().withTags('t').build());
      versions.push(await repository.visibleVersion(READ_MOMENT));
      await repository.createWithKey(aNewArticle().build(), {
        key: 'k',
        fingerprint: 'f',
        expiredUpTo: new Date(0),
      });
      versions.push(await repository.visibleVersion(READ_MOMENT));
      await repository.update(created.id, someChanges().with({ title: 'changed' }).build(), undefined, ANY_WRITER);
      versions.push(await repository.visibleVersion(READ_MOMENT));
      await repository.update(created.id, someChanges().publishingOn(null).build(), undefined, ANY_WRITER);
      versions.push(await repository.visibleVersion(READ_MOMENT));
      await repository.update(created.id, someChanges().replacingTags('other').build(), undefined, ANY_WRITER);
      versions.push(await repository.visibleVersion(READ_MOMENT));
      await repository.delete(created.id, new Date(), undefined, ANY_WRITER);
      versions.push(await repository.visibleVersion(READ_MOMENT));

      expect(new Set(versions).size).toBe(versions.length);
    });

    it('a stream returns a version its data is not older than: a write committed meanwhile leaves it behind', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
      const stream = repository.streamVisible({ moment: READ_MOMENT });
      await stream.next();
      await repository.create(aNewArticle().build());
      const returned = await returnedBy(stream);

      expect(returned).toEqual(expect.any(String));
      expect(await repository.visibleVersion(READ_MOMENT)).not.toBe(returned);
    });

    it('a stream tells the version it returns before its first chunk, and a page the version it read', async () => {
      for (let n = 0; n < STREAM_CHUNK_SIZE + 1; n++) await repository.create(aNewArticle().build());
      const told: string[] = [];
      const stream = repository.streamVisible({ moment: READ_MOMENT }, (version) => told.push(version));
      await stream.next();
      expect(told).toEqual([expect.any(String)]);
      // A write after the first chunk leaves the told version behind: it is the data's, not now's.
      await repository.create(aNewArticle().build());
      expect(await returnedBy(stream)).toBe(told[0]);
      expect(await repository.visibleVersion(READ_MOMENT)).not.toBe(told[0]);

      let toldByPage: string | undefined;
      const page = await repository.listVisible({ moment: READ_MOMENT, limit: 2 }, (version) => {
        toldByPage = version;
      });
      expect(page).toHaveLength(2);
      expect(toldByPage).toEqual(expect.any(String));
      await repository.create(aNewArticle().build());
      expect(await repository.visibleVersion(READ_MOMENT)).not.toBe(toldByPage);
    });

    it('a stream or a page read while nothing is written has the version of now', async () => {
      await repository.create(aNewArticle().withTags('t').build());
      // On PostgreSQL the version is the server's snapshot, which other databases' writes on
      // the same server move too (other test files run beside this one): a few tries find a
      // quiet moment. A version that is not the data's would never be equal.
      let equal = false;
      for (let attempt = 0; attempt < 50 && !equal; attempt++) {
        const before = await repository.visibleVersion(READ_MOMENT);
        const returned = await returnedBy(repository.streamVisible({ moment: READ_MOMENT }));
        let toldByPage: string | undefined;
        await repository.listVisible({ moment: READ_MOMENT, limit: 5 }, (version) => {
          toldByPage = version;
        });
        equal =
          returned === before && toldByPage === before && (await repository.visibleVersion(READ_MOMENT)) === returned;
      }
      expect(equal).toBe(true);
    });
  });
}
