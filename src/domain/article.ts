import type { Author } from './author';
import { ValidationError } from './errors';
import type { Category, Tag } from './term';
import { checkStorableText } from './text';

export interface Article {
  readonly id: number;
  readonly title: string | null;
  readonly description: string;
  readonly content: string;
  /** null: a draft; later than the moment of a read: scheduled; otherwise published (articleStatusAt). */
  readonly publishedAt: Date | null;
  readonly featured: boolean;
  /** Unique among current articles; an article keeps it when its title changes. */
  readonly slug: string;
  readonly tags: readonly Tag[];
  readonly categories: readonly Category[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** 1 at creation, one more with each update: what a conditional write (If-Match) compares. */
  readonly version: number;
  /** The author of the key that created it; null when it was created without a key. */
  readonly author: Author | null;
}

/** The text fields of an article a client may write; publication and slug have rules of their own. */
export interface ArticleFields {
  readonly title: string | null;
  readonly description: string;
  readonly content: string;
  readonly featured: boolean;
}

export type ArticleStatus = 'draft' | 'scheduled' | 'published';

/**
 * What an article is at `moment`: no stored status changes when a scheduled time arrives, so
 * every read decides it from publishedAt and the moment the read started.
 */
export function articleStatusAt(publishedAt: Date | null, moment: Date): ArticleStatus {
  if (publishedAt === null) return 'draft';
  return publishedAt.getTime() > moment.getTime() ? 'scheduled' : 'published';
}

export const ARTICLE_RULES = {
  titleMaxLength: 200,
  descriptionMaxLength: 1000,
  defaultDescription: '这篇文章还没有介绍...',
  /** Ids are stored as signed 32-bit integers. */
  maxId: 2_147_483_647,
} as const;

export interface NewArticleFieldsInput {
  title?: string | null;
  description?: string;
  content: string;
  featured?: boolean;
}

/** Applies the defaults of a new article and checks every field. */
export function newArticleFields(input: NewArticleFieldsInput): ArticleFields {
  return checkArticleFields({
    title: input.title ?? null,
    description: input.description ?? ARTICLE_RULES.defaultDescription,
    content: input.content,
    featured: input.featured ?? false,
  }) as ArticleFields;
}

/** Checks the fields an update sets; absent fields stay absent. */
export function checkArticleFields(fields: Partial<ArticleFields>): Partial<ArticleFields> {
  if (fields.title !== undefined && fields.title !== null) {
    checkStorableText('title', fields.title, ARTICLE_RULES.titleMaxLength);
  }
  if (fields.description !== undefined) {
    checkStorableText('description', fields.description, ARTICLE_RULES.descriptionMaxLength);
  }
  if (fields.content !== undefined) {
    // Whitespace-only content is valid; only the empty string is not.
    if (fields.content.length === 0) throw new ValidationError('content', 'must not be empty');
    checkStorableText('content', fields.content);
  }
  return fields;
}
