import {
  articleOfStoredJson,
  storedArticleJson,
} from '../../../src/infrastructure/persistence/typeorm/article-repository/stored-article-json';

describe('an article stored as JSON (revisions, key answers)', () => {
  const article = {
    id: 7,
    title: 't',
    description: 'd',
    content: 'c',
    publishedAt: new Date('2026-01-01T00:00:00.001Z'),
    featured: false,
    slug: 't',
    tags: [],
    categories: [],
    createdAt: new Date('2026-01-01T00:00:00.001Z'),
    updatedAt: new Date('2026-01-02T00:00:00.002Z'),
    version: 2,
    author: { id: 'a1', name: 'Ada', slug: 'ada' },
  };

  it('keeps the author', () => {
    expect(articleOfStoredJson(storedArticleJson(article), 7)).toEqual(article);
  });

  it('reads JSON written before articles had authors as no author', () => {
    const { author: _author, ...older } = JSON.parse(storedArticleJson(article));
    expect(articleOfStoredJson(JSON.stringify(older), 7)).toEqual({ ...article, author: null });
  });
});
