import type { Article } from '../../../src/domain';
import { articleJsonRuns } from '../../../src/interfaces/http/article-json-runs';
import { articleJsonText, presentArticle } from '../../../src/interfaces/http/presenters';
import { PIECE_CHARS } from '../../../src/interfaces/http/streamed-list';

const moment = new Date('2026-03-01T00:00:00.000Z');

const article = (id: number, content = 'Words "quoted"\n'): Article => ({
  id,
  title: `Article ${id}`,
  description: 'd',
  content,
  publishedAt: new Date('2026-01-01T00:00:00.000Z'),
  featured: id % 2 === 0,
  slug: `article-${id}`,
  tags: [{ id: 't1', name: 'dev', description: null }],
  categories: [],
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  updatedAt: new Date('2026-01-02T00:00:00.000Z'),
  version: 1,
  author: null,
});

describe('articleJsonRuns (the whole list presents a chunk with it)', () => {
  it('is the articles as the API shows them, in order, once the runs are joined by commas', () => {
    const articles = Array.from({ length: 300 }, (_, index) => article(index + 1));
    const runs = articleJsonRuns(articles, moment);
    expect(JSON.parse(`[${runs.join(',')}]`)).toEqual(articles.map((each) => presentArticle(each, moment)));
  });

  it('closes a run once it holds PIECE_CHARS characters, so that each is written as it is', () => {
    const articles = Array.from({ length: 300 }, (_, index) => article(index + 1, 'x'.repeat(index * 7)));
    const texts = articles.map((each) => articleJsonText(each, moment));
    const runs = articleJsonRuns(articles, moment);
    expect(runs.length).toBeGreaterThan(2);
    let next = 0;
    for (const [index, run] of runs.entries()) {
      // The run's articles: as many as it takes to reach PIECE_CHARS, the last run the rest.
      let chars = -1;
      const from = next;
      while (next < texts.length && (chars < PIECE_CHARS || next === from))
        chars += (texts[next++] as string).length + 1;
      // Compared as a boolean: a failure would print two texts of 32 KB.
      expect(run === texts.slice(from, next).join(',')).toBe(true);
      if (index < runs.length - 1) expect(run.length).toBeGreaterThanOrEqual(PIECE_CHARS);
    }
    expect(next).toBe(texts.length);
  });

  it('answers no run for no articles', () => {
    expect(articleJsonRuns([], moment)).toEqual([]);
  });
});
