import { type Actor, ArticleNotFoundError, type ArticleRevision } from '../../domain';
import { mayRead } from '../access/article-access';
import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface ListArticleRevisionsInput {
  id: number;
  /** At most this many, newest first; absent: every one kept. */
  limit?: number;
  /** Only revisions numbered below this one (the next page after a revision). */
  before?: number;
}

/**
 * An article's revisions, newest first, a deleted article's included; ArticleNotFoundError for
 * an id that no article has or had, and for one `actor` may not read: the article as it is now,
 * or, deleted, as its last revision holds it.
 */
export class ListArticleRevisions {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: ListArticleRevisionsInput, actor: Actor): Promise<ArticleRevision[]> {
    const current =
      (await this.articles.findById(input.id)) ??
      (await this.articles.listRevisions(input.id, { limit: 1 }))?.[0]?.article;
    if (!current || !mayRead(actor, current, this.clock.now())) throw new ArticleNotFoundError(input.id);
    const revisions = await this.articles.listRevisions(input.id, { limit: input.limit, before: input.before });
    if (!revisions) throw new ArticleNotFoundError(input.id);
    return revisions;
  }
}
