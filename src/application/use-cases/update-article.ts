import {
  type Actor,
  type Article,
  type ArticleFields,
  ArticleNotFoundError,
  checkArticleFields,
  checkSlug,
  normalizeTermReferences,
  type PublicationInput,
  publicationChangeOf,
  type TermReferenceInput,
} from '../../domain';
import { checkMayWrite, checkPublicationChange } from '../access/article-access';
import type { ArticleRepository, ExpectedVersions } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface UpdateArticleInput extends Partial<ArticleFields>, PublicationInput {
  id: number;
  slug?: string;
  tag?: readonly TermReferenceInput[];
  category?: readonly TermReferenceInput[];
  /** Update only while the article is at one of these versions (If-Match); absent: whatever its version. */
  expected?: ExpectedVersions;
}

export class UpdateArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Applies the fields present, if `actor` may (checkMayWrite, on the article as the write finds
   * it). Throws, writing nothing, ArticleNotFoundError for an unknown id (or one it may not read),
   * ForbiddenError when it may read but not change it,
   * ArticleChangedError when the article is no longer at an expected version, and SlugTakenError
   * when another current article has the slug asked for.
   */
  async execute(input: UpdateArticleInput, actor: Actor): Promise<Article> {
    const { id, tag, category, title, description, content, featured, slug, expected } = input;
    const fields = checkArticleFields(withoutUndefined({ title, description, content, featured }));
    if (slug !== undefined) checkSlug('slug', slug);
    const now = this.clock.now();
    const publication = publicationChangeOf(input, now);
    checkPublicationChange(actor, publication);
    const updated = await this.articles.update(
      id,
      {
        fields,
        publication,
        slug,
        tags: tag && normalizeTermReferences('tag', tag),
        categories: category && normalizeTermReferences('category', category),
        updatedAt: now,
      },
      expected,
      (current) => checkMayWrite(actor, current, now, 'update'),
    );
    if (!updated) throw new ArticleNotFoundError(id);
    return updated;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
