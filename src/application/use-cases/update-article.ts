import {
  type Article,
  type ArticleFields,
  ArticleNotFoundError,
  checkArticleFields,
  normalizeTermReferences,
  type TermReferenceInput,
} from '../../domain';
import type { ArticleRepository, ExpectedVersions } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface UpdateArticleInput extends Partial<ArticleFields> {
  id: number;
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
   * Applies the fields present. Throws, writing nothing, ArticleNotFoundError for an unknown id and
   * ArticleChangedError when the article is no longer at an expected version.
   */
  async execute(input: UpdateArticleInput): Promise<Article> {
    const { id, tag, category, title, description, content, visible, expected } = input;
    const fields = checkArticleFields(withoutUndefined({ title, description, content, visible }));
    const updated = await this.articles.update(
      id,
      {
        fields,
        tags: tag && normalizeTermReferences('tag', tag),
        categories: category && normalizeTermReferences('category', category),
        updatedAt: this.clock.now(),
      },
      expected,
    );
    if (!updated) throw new ArticleNotFoundError(id);
    return updated;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
