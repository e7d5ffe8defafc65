import { type Article, type ArticleFields, type SearchableText, searchableTextOf } from '../../../domain';

/** An article as the in-memory store keeps it: its terms and author by id, its search text folded. */
export interface StoredArticle extends ArticleFields {
  id: number;
  publishedAt: Date | null;
  slug: string;
  tagIds: string[];
  categoryIds: string[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** The searchable fields folded for search, kept in step with the fields on every write. */
  search: SearchableText;
  authorId: string | null;
}

/**
 * What a restore of `target` (a kept revision) stores: the revision's fields and terms, at the
 * version after `last` (the current one, or the revision a delete kept) and never dated before it.
 */
export function restoredState(
  id: number,
  target: Article,
  current: StoredArticle | undefined,
  last: { readonly version: number; readonly updatedAt: Date },
  at: Date,
): StoredArticle {
  return {
    id,
    title: target.title,
    description: target.description,
    content: target.content,
    featured: target.featured,
    publishedAt: target.publishedAt,
    slug: target.slug,
    tagIds: target.tags.map((term) => term.id),
    categoryIds: target.categories.map((term) => term.id),
    createdAt: current?.createdAt ?? target.createdAt,
    updatedAt: new Date(Math.max(at.getTime(), last.updatedAt.getTime())),
    version: last.version + 1,
    search: searchableTextOf(target),
    // An article's author never changes; a deleted one's is in its revision.
    authorId: current?.authorId ?? target.author?.id ?? null,
  };
}
