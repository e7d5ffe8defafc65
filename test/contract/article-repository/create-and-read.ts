import type { ArticleRepository } from '../../../src/application';
import { aNewArticle, READ_MOMENT } from '../../support/builders';
import { type OpenContractSubject, useContractSubject } from './subject';
import { termNames } from './term-names';

/** Creating an article and reading it back by id: every field, ids, timestamps and text kept exactly. */
export function createAndReadContract(open: OpenContractSubject): void {
  describe('create and read', () => {
    let repository: ArticleRepository;
    useContractSubject(open, (opened) => {
      repository = opened;
    });

    it('stores every field and answers the stored article, createdAt equal to updatedAt', async () => {
      const createdAt = new Date('2026-03-04T05:06:07.891Z');
      const created = await repository.create(
        aNewArticle()
          .with({ title: null, description: 'd', content: 'c', featured: true })
          .invisible()
          .at(createdAt)
          .build(),
      );

      expect(created).toEqual({
        id: expect.any(Number),
        title: null,
        description: 'd',
        content: 'c',
        publishedAt: null,
        featured: true,
        slug: 'article',
        tags: [],
        categories: [],
        createdAt,
        updatedAt: createdAt,
        version: 1,
        author: null,
      });
      expect(created.id).toBeGreaterThan(0);
      await expect(repository.findById(created.id)).resolves.toEqual(created);
    });

    it('gives increasing ids and lists by id ascending', async () => {
      const first = await repository.create(aNewArticle().with({ title: 'first' }).build());
      const second = await repository.create(aNewArticle().with({ title: 'second' }).build());
      const third = await repository.create(aNewArticle().with({ title: 'third' }).build());

      expect(second.id).toBeGreaterThan(first.id);
      expect(third.id).toBeGreaterThan(second.id);
      const listed = await repository.listVisible({ moment: READ_MOMENT, limit: 100 });
      expect(listed.map((article) => article.title)).toEqual(['first', 'second', 'third']);
    });

    it('answers null for an id that does not exist', async () => {
      await expect(repository.findById(424242)).resolves.toBeNull();
    });

    it('keeps timestamps to the millisecond', async () => {
      const createdAt = new Date('2030-12-31T23:59:59.999Z');
      const created = await repository.create(aNewArticle().at(createdAt).build());
      const read = await repository.findById(created.id);
      expect(read?.createdAt.toISOString()).toBe('2030-12-31T23:59:59.999Z');
      expect(read?.updatedAt.getTime()).toBe(createdAt.getTime());
    });

    it('stores the longest title and description the domain allows, counted in code points', async () => {
      const title = '😀'.repeat(200);
      const description = '𝄞'.repeat(1000);
      const created = await repository.create(
        aNewArticle().with({ title, description }).withTags('🏷'.repeat(64)).build(),
      );
      const read = await repository.findById(created.id);
      expect(read?.title).toBe(title);
      expect(read?.description).toBe(description);
      expect(termNames(read)).toEqual(['🏷'.repeat(64)]);
    });

    it('round-trips text exactly: emoji, right-to-left, SQL and HTML, long content', async () => {
      const content = `${'😀 مرحبا ; DROP TABLE articles; -- <script>alert(1)</script> \' " \\ '.repeat(2000)}\n\t `;
      const title = "Robert'); DROP TABLE tags;-- 👩‍👩‍👧";
      const created = await repository.create(aNewArticle().with({ title, content }).withTags('<b>tag</b>').build());
      const read = await repository.findById(created.id);
      expect(read?.content).toBe(content);
      expect(read?.title).toBe(title);
      expect(termNames(read)).toEqual(['<b>tag</b>']);
    });
  });
}
