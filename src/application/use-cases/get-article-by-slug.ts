import { type Actor, checkSlug, SlugNotFoundError } from '../../domain';
import { mayRead } from '../access/article-access';
import type { ArticleRepository, SlugLookup } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface GetArticleBySlugInput {
  slug: string;
}

/**
 * The article whose slug this is (whatever its status, like a read by id), or, for an earlier
 * slug of an article, its id and current slug (a redirect); SlugNotFoundError when neither, or
 * when `actor` may not read the article (an earlier slug of a draft tells nothing either).
 */
export class GetArticleBySlug {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: GetArticleBySlugInput, actor: Actor): Promise<SlugLookup> {
    checkSlug('slug', input.slug);
    const found = await this.articles.findBySlug(input.slug);
    const article = found?.found === 'earlier' ? await this.articles.findById(found.id) : found?.article;
    if (!found || !article || !mayRead(actor, article, this.clock.now())) throw new SlugNotFoundError(input.slug);
    return found;
  }
}
