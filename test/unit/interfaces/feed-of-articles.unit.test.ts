import type { Article } from '../../../src/domain';
import { atomFeed } from '../../../src/interfaces/http/feeds/atom-feed';
import { feedOfArticles } from '../../../src/interfaces/http/feeds/feed-of-articles';
import { jsonFeed } from '../../../src/interfaces/http/feeds/json-feed';
import { rssFeed } from '../../../src/interfaces/http/feeds/rss-feed';

const LINKS = {
  publicUrl: 'https://blog.example.com:8443',
  articleUrlTemplate: 'https://blog.example.com:8443/posts/{id}/{slug}',
  title: 'A & B',
};

const article: Article = {
  id: 7,
  title: null,
  description: 'Short <b>',
  content: 'Body ]]> end',
  publishedAt: new Date('2026-11-20T10:00:00.000Z'),
  featured: false,
  slug: 'first-post',
  tags: [{ id: 't1', name: 'TypeScript', description: null }],
  categories: [{ id: 'c1', name: 'dev', description: null }],
  createdAt: new Date('2026-11-19T09:00:00.000Z'),
  updatedAt: new Date('2026-11-21T08:00:00.000Z'),
  version: 3,
  author: { id: 'a1', name: 'Ada Lovelace', slug: 'ada-lovelace' },
};

describe('a feed of articles', () => {
  const feed = feedOfArticles([article], LINKS, '/feeds/atom.xml?tag=TypeScript', new Date('2026-11-22T00:00:00.000Z'));

  it('makes ids, links and titles as the contract says', () => {
    expect(feed).toMatchObject({
      title: 'A & B',
      selfUrl: 'https://blog.example.com:8443/feeds/atom.xml?tag=TypeScript',
    });
    expect(feed.entries).toEqual([
      {
        id: 'tag:blog.example.com,2026:article:7',
        url: 'https://blog.example.com:8443/posts/7/first-post',
        title: 'first-post',
        summary: 'Short <b>',
        content: 'Body ]]> end',
        published: article.publishedAt,
        updated: article.updatedAt,
        categories: ['TypeScript', 'dev'],
        author: 'Ada Lovelace',
      },
    ]);
  });

  it('spells it as JSON Feed 1.1', () => {
    expect(JSON.parse(jsonFeed(feed))).toEqual({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'A & B',
      home_page_url: 'https://blog.example.com:8443',
      feed_url: 'https://blog.example.com:8443/feeds/atom.xml?tag=TypeScript',
      items: [
        {
          id: 'tag:blog.example.com,2026:article:7',
          url: 'https://blog.example.com:8443/posts/7/first-post',
          title: 'first-post',
          summary: 'Short <b>',
          content_text: 'Body ]]> end',
          date_published: '2026-11-20T10:00:00.000Z',
          date_modified: '2026-11-21T08:00:00.000Z',
          tags: ['TypeScript', 'dev'],
          authors: [{ name: 'Ada Lovelace' }],
        },
      ],
    });
  });

  it('escapes text in RSS and Atom, and dates each in its format', () => {
    const rss = rssFeed(feed);
    expect(rss).toContain('<title>A &amp; B</title>');
    expect(rss).toContain('<description>Short &lt;b&gt;</description>');
    expect(rss).toContain('<pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>');
    expect(rss).toContain('<dc:creator>Ada Lovelace</dc:creator>');
    const atom = atomFeed(feed);
    expect(atom).toContain('<content type="text">Body ]]&gt; end</content>');
    expect(atom).toContain('<published>2026-11-20T10:00:00.000Z</published>');
    expect(atom).toContain('<updated>2026-11-22T00:00:00.000Z</updated>');
    expect(atom).toContain('<category term="TypeScript"/>');
  });
});
