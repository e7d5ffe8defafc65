import type { SlugRequest } from '../../../application';
import { SlugTakenError, slugCandidates } from '../../../domain';

/**
 * The slugs of the in-memory store: each current article's, and the earlier ones that still lead
 * to an article, with the rules the SQL adapters' unique index and article_slugs give.
 */
export class InMemorySlugs {
  private readonly idsBySlug = new Map<string, number>();
  private readonly idsByEarlierSlug = new Map<string, number>();

  /** The slug a create stores: the one given (SlugTakenError when held), or the base's first free candidate. */
  free(request: SlugRequest): string {
    if (!this.idsBySlug.has(request.slug)) return request.slug;
    if (request.given) throw new SlugTakenError(request.slug);
    for (let n = 2; ; n++) {
      const [candidate] = slugCandidates(request.slug, n, 1) as [string];
      if (!this.idsBySlug.has(candidate)) return candidate;
    }
  }

  /** SlugTakenError when another current article than `id` has `slug`. */
  checkFree(slug: string, id: number): void {
    const holder = this.idsBySlug.get(slug);
    if (holder !== undefined && holder !== id) throw new SlugTakenError(slug);
  }

  /** Article `id` now has `slug`: an earlier slug of the same text stops leading elsewhere. */
  take(slug: string, id: number): void {
    this.idsBySlug.set(slug, id);
    this.idsByEarlierSlug.delete(slug);
  }

  /** Article `id` goes from `from` to `to`; `from` leads to it from now on. */
  rename(id: number, from: string, to: string): void {
    if (from === to) return;
    this.idsBySlug.delete(from);
    this.take(to, id);
    this.idsByEarlierSlug.set(from, id);
  }

  /** A deleted article's slug and earlier slugs are free again, as the SQL adapters' cascade makes them. */
  release(id: number, slug: string): void {
    this.idsBySlug.delete(slug);
    for (const [earlier, holder] of this.idsByEarlierSlug) if (holder === id) this.idsByEarlierSlug.delete(earlier);
  }

  /** Whose slug it is now, or whose it was: the ids; `current` is read by the caller. */
  lookup(slug: string): { current?: number; earlier?: number } {
    return { current: this.idsBySlug.get(slug), earlier: this.idsByEarlierSlug.get(slug) };
  }
}
