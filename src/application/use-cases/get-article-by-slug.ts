import { checkSlug, SlugNotFoundError } from '../../domain';
import type { ArticleRepository, SlugLookup } from '../ports/article-repository';

export interface GetArticleBySlugInput {
  slug: string;
}

/**
 * The article whose slug this is (whatever its status, like a read by id), or, for an earlier
 * slug of an article, its id and current slug (a redirect); SlugNotFoundError when neither.
 */
export class GetArticleBySlug {
  constructor(private readonly articles: ArticleRepository) {}

  async execute(input: GetArticleBySlugInput): Promise<SlugLookup> {
    checkSlug('slug', input.slug);
    const found = await this.articles.findBySlug(input.slug);
    if (!found) throw new SlugNotFoundError(input.slug);
    return found;
  }
}
