import type { TermKind } from '../../../src/domain';
import type {
  StreamRow,
  TermRow,
} from '../../../src/infrastructure/persistence/typeorm/article-repository/article-rows';
import {
  articlesWithKnownTerms,
  nothingKnownToStream,
} from '../../../src/infrastructure/persistence/typeorm/article-repository/stream-terms';
import { POSTGRES_DIALECT, SQLITE_DIALECT } from '../../../src/infrastructure/persistence/typeorm/sql-dialect';

const author = { id: 'au1', name: 'Ada', slug: 'ada' };

/** A stream row as PostgreSQL's driver answers it (JSON columns parsed). */
function row(id: number, tagIds: string[] | null, authorColumn: unknown = { ...author }): StreamRow {
  return {
    id,
    title: `t${id}`,
    description: 'd',
    content: 'c',
    publishedAt: 1_000,
    featured: false,
    slug: `a-${id}`,
    createdAt: 1_000,
    updatedAt: 1_000,
    version: 1,
    author: authorColumn,
    tagIds,
    categoryIds: null,
  };
}

const tagRow = (id: string, name: string): TermRow => ({ kind: 'tag', id, name, description: null });

describe("a stream chunk's articles", () => {
  it("orders each article's terms by name whatever order their ids come in, looking up only the unknown ones, once", async () => {
    const known = nothingKnownToStream();
    known.tag.set('t-b', { id: 't-b', name: 'b', description: null });
    const lookups: Record<TermKind, string[]>[] = [];
    const articles = await articlesWithKnownTerms(
      [row(1, ['t-b', 't-z', 't-a']), row(2, ['t-a', 't-b'])],
      known,
      POSTGRES_DIALECT,
      async (ids) => {
        lookups.push(ids);
        return [tagRow('t-z', 'Z'), tagRow('t-a', 'a')];
      },
    );

    expect(articles.map((article) => article.tags.map((tag) => tag.name))).toEqual([
      ['Z', 'a', 'b'],
      ['a', 'b'],
    ]);
    expect(lookups).toEqual([{ tag: ['t-z', 't-a'], category: [] }]);
  });

  it('gives the articles of one author one author object (its JSON text is then written once), on both dialects', async () => {
    const noLookup = async () => [];
    const onPostgres = await articlesWithKnownTerms(
      [row(1, null), row(2, null), row(3, null, null)],
      nothingKnownToStream(),
      POSTGRES_DIALECT,
      noLookup,
    );
    const onSqlite = await articlesWithKnownTerms(
      [row(1, '[]' as never, JSON.stringify(author)), row(2, '[]' as never, JSON.stringify(author))],
      nothingKnownToStream(),
      SQLITE_DIALECT,
      noLookup,
    );

    for (const articles of [onPostgres, onSqlite]) {
      expect(articles[0]?.author).toEqual(author);
      expect(articles[1]?.author).toBe(articles[0]?.author);
    }
    expect(onPostgres[2]?.author).toBeNull();
  });
});
