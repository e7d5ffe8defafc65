import type { RevisionsPage, RevisionTest } from '../../../application';
import type { Article, ArticleRevision } from '../../../domain';

/** The revisions of the in-memory store: each article's, oldest first, kept after a delete. */
export class InMemoryRevisions {
  private readonly byArticle = new Map<number, ArticleRevision[]>();

  /** `article` as it is, as its next revision, replaced at `at`. */
  keep(article: Article, at: Date): void {
    const revisions = this.byArticle.get(article.id) ?? [];
    const last = revisions[revisions.length - 1];
    revisions.push({ revision: (last?.revision ?? 0) + 1, replacedAt: at, article });
    this.byArticle.set(article.id, revisions);
  }

  find(id: number, revision: number): ArticleRevision | undefined {
    return this.byArticle.get(id)?.find((kept) => kept.revision === revision);
  }

  /** The last version and updatedAt its revisions hold: a deleted article's last state. */
  lastState(id: number): { version: number; updatedAt: Date } {
    const revisions = this.byArticle.get(id) ?? [];
    const last = revisions[revisions.length - 1] as ArticleRevision;
    return { version: Math.max(...revisions.map((kept) => kept.article.version)), updatedAt: last.article.updatedAt };
  }

  /** Newest first; undefined when the article has none. */
  list(id: number, page: RevisionsPage): ArticleRevision[] | undefined {
    const revisions = this.byArticle.get(id);
    if (!revisions) return undefined;
    const newestFirst = revisions.filter((kept) => page.before === undefined || kept.revision < page.before).reverse();
    return structuredClone(newestFirst.slice(0, page.limit ?? newestFirst.length));
  }

  /** ArticleRepository.latestReplacement: newest first, as the SQL storages walk them. */
  latestReplacement(after: Date, upTo: Date, test: RevisionTest): Date | null {
    const inRange = [...this.byArticle.values()]
      .flat()
      .filter(({ replacedAt }) => replacedAt > after && replacedAt <= upTo)
      .sort(
        (a, b) =>
          b.replacedAt.getTime() - a.replacedAt.getTime() || b.article.id - a.article.id || b.revision - a.revision,
      );
    return inRange.find((kept) => test(structuredClone(kept.article), kept.replacedAt))?.replacedAt ?? null;
  }

  /** Removes at most `limit` revisions replaced at or before `upTo`; answers how many. */
  deleteExpired(upTo: Date, limit: number): number {
    let removed = 0;
    for (const [id, revisions] of this.byArticle) {
      const kept = revisions.filter((revision) => revision.replacedAt > upTo || removed++ >= limit);
      if (kept.length === 0) this.byArticle.delete(id);
      else this.byArticle.set(id, kept);
    }
    return Math.min(removed, limit);
  }
}
