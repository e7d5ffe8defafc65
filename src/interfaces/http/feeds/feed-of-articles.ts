import type { Article } from '../../../domain';
import type { FeedDocument, FeedEntry } from './feed-document';

/** The settings a feed's links and title come from (AppConfig's feeds). */
export interface FeedLinks {
  readonly publicUrl: string;
  readonly articleUrlTemplate: string;
  readonly title: string;
}

/**
 * The feed document of these articles (published, newest first, as the use case read them),
 * asked at `path` (the request's path and query) and last modified at `updated`.
 */
export function feedOfArticles(
  articles: readonly Article[],
  links: FeedLinks,
  path: string,
  updated: Date,
): FeedDocument {
  const host = new URL(links.publicUrl).hostname;
  return {
    title: links.title,
    siteUrl: links.publicUrl,
    selfUrl: `${links.publicUrl}${path}`,
    updated,
    entries: articles.map((article) => entryOf(article, links.articleUrlTemplate, host)),
  };
}

function entryOf(article: Article, articleUrlTemplate: string, host: string): FeedEntry {
  return {
    // A tag URI (RFC 4151) of the article's id: unchanged by edits and slug renames.
    id: `tag:${host},2026:article:${article.id}`,
    url: articleUrlTemplate.replaceAll('{slug}', article.slug).replaceAll('{id}', String(article.id)),
    title: article.title ?? article.slug,
    summary: article.description,
    content: article.content,
    // Only published articles reach a feed.
    published: article.publishedAt ?? article.createdAt,
    updated: article.updatedAt,
    categories: [...article.tags.map((tag) => tag.name), ...article.categories.map((category) => category.name)],
    author: article.author?.name ?? null,
  };
}
