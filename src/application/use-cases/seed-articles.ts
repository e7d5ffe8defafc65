import type { Actor, Article } from '../../domain';
import { requireRole } from '../access/article-access';
import type { CreateArticle } from './create-article';
import type { ListVisibleArticles } from './list-visible-articles';

const SEED_COUNT = 3;

/** Adds three demonstration articles, one after another, and answers the visible list. */
export class SeedArticles {
  constructor(
    private readonly createArticle: CreateArticle,
    private readonly listVisibleArticles: ListVisibleArticles,
  ) {}

  /**
   * Creates the three articles, then answers every visible article in batches, as GET /article
   * reads them: the list is not held in memory whole.
   */
  async execute(actor: Actor): Promise<AsyncGenerator<Article[]>> {
    requireRole(actor, 'editor', 'The demo seed');
    for (let n = 1; n <= SEED_COUNT; n++) {
      await this.createArticle.execute({ title: `Article ${n}`, content: `Content ${n}` }, actor);
    }
    return this.listVisibleArticles.batches();
  }
}
