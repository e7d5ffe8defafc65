import { type Actor, type Article, RevisionNotFoundError } from '../../domain';
import { mayRead, requireRole } from '../access/article-access';
import type { ArticleRepository, ExpectedVersions } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface RestoreArticleInput {
  id: number;
  revision: number;
  /** Restore only while the article is at one of these versions (If-Match); absent: whatever its version. */
  expected?: ExpectedVersions;
}

/**
 * Makes an article what one of its revisions holds, a deleted one included (it comes back with
 * its id); the state it replaces is kept as a new revision. Restores are an editor's (anyone's
 * under the open rules). Throws, writing nothing, RevisionNotFoundError (also for an article the
 * actor may not read: it is missing to it), ForbiddenError, SlugTakenError or ArticleChangedError
 * (ArticleRepository.restore).
 */
export class RestoreArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: RestoreArticleInput, actor: Actor): Promise<Article> {
    const now = this.clock.now();
    if (actor.kind !== 'open') {
      const current =
        (await this.articles.findById(input.id)) ??
        (await this.articles.listRevisions(input.id, { limit: 1 }))?.[0]?.article;
      if (!current || !mayRead(actor, current, now)) throw new RevisionNotFoundError(input.id, input.revision);
    }
    requireRole(actor, 'editor', 'A restore');
    return this.articles.restore(input.id, input.revision, now, input.expected);
  }
}
