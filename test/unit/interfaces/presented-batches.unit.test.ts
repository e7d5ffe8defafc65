import type { Article } from '../../../src/domain';
import { presented } from '../../../src/interfaces/http/controllers/article-controller';
import { TestClock } from '../../support/test-clock';

const clock = new TestClock('2026-03-01T00:00:00.000Z');

const article = (id: number): Article => ({
  id,
  title: null,
  description: 'd',
  content: 'c',
  publishedAt: new Date('2026-01-01T00:00:00.000Z'),
  featured: false,
  slug: `article-${id}`,
  tags: [],
  categories: [{ id: 'c1', name: 'dev', description: null }],
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  updatedAt: new Date('2026-01-02T00:00:00.000Z'),
  version: 3,
  author: null,
});

describe('presented (the batches GET /article streams)', () => {
  it('shows each article of each batch as the API does, without its version', async () => {
    async function* batches() {
      yield [article(1), article(2)];
      yield [article(5)];
    }
    const shown: unknown[][] = [];
    // A batch's texts are runs of articles joined by commas, joined by commas in turn.
    for await (const batch of presented(batches(), clock)) shown.push(JSON.parse(`[${batch.join(',')}]`));
    expect(shown.map((batch) => batch.length)).toEqual([2, 1]);
    expect(shown[1]?.[0]).toEqual({
      id: 5,
      title: null,
      description: 'd',
      content: 'c',
      visible: true,
      tag: [],
      category: [{ id: 'c1', name: 'dev', description: null }],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      slug: 'article-5',
      publishedAt: '2026-01-01T00:00:00.000Z',
      status: 'published',
      featured: false,
      readingTime: 1,
      author: null,
    });
  });

  it('closing it closes the batches it reads, so that a client that leaves stops the reading', async () => {
    let read = 0;
    let closed = false;
    async function* batches() {
      try {
        for (;;) yield [article(++read)];
      } finally {
        closed = true;
      }
    }
    const shown = presented(batches(), clock);
    await shown.next();
    await shown.return(undefined);
    expect(closed).toBe(true);
    expect(read).toBe(1);
  });
});
