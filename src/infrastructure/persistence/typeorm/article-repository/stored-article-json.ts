import type { Article, Author } from '../../../../domain';

/**
 * What earlier releases stored (a key's answer lives a day, a revision longer): `visible`, no
 * publishing fields, no author.
 */
interface PreviousReleaseFields {
  visible?: boolean;
  publishedAt?: number | null;
  featured?: boolean;
  slug?: string;
  author?: Author | null;
}

type StoredFields = Omit<Article, 'id' | 'createdAt' | 'updatedAt' | 'publishedAt' | 'featured' | 'slug' | 'author'> &
  PreviousReleaseFields & { createdAt: number; updatedAt: number };

/**
 * An article as a column stores it (a key's answer, a revision): its JSON without its id (stored
 * beside it), instants in epoch ms.
 */
export function storedArticleJson({ id: _id, ...article }: Article): string {
  return JSON.stringify({
    ...article,
    publishedAt: article.publishedAt?.getTime() ?? null,
    createdAt: article.createdAt.getTime(),
    updatedAt: article.updatedAt.getTime(),
  });
}

/** The article storedArticleJson wrote, with the id stored beside it. */
export function articleOfStoredJson(text: string, id: number): Article {
  const { visible, ...stored } = JSON.parse(text) as StoredFields;
  // The previous release published a visible article at its creation, as the migration does.
  const publishedAt = stored.publishedAt === undefined ? (visible ? stored.createdAt : null) : stored.publishedAt;
  return {
    ...stored,
    id,
    publishedAt: publishedAt === null ? null : new Date(publishedAt),
    featured: stored.featured ?? false,
    // Its slug is in the article's row, which a key's record does not read.
    slug: stored.slug ?? 'article',
    createdAt: new Date(stored.createdAt),
    updatedAt: new Date(stored.updatedAt),
    // Written before articles had authors: none.
    author: stored.author ?? null,
  };
}
