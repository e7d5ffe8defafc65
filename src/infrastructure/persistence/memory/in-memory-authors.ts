import { createId } from '@paralleldrive/cuid2';
import { type Author, slugCandidates, slugFromTitle } from '../../../domain';

/**
 * The authors of the in-memory store, shared by its articles (InMemoryArticleRepository) and its
 * keys (InMemoryKeyRepository): hand one instance to both. Authors are never changed or deleted.
 */
export class InMemoryAuthors {
  private readonly byId = new Map<string, Author>();
  private readonly byName = new Map<string, Author>();
  /** Each author's id by its slug. */
  private readonly idsBySlug = new Map<string, string>();

  /** The author of this name, or a new one with the first free slug of its name (synchronous: no race). */
  findOrCreate(name: string): Author {
    const found = this.byName.get(name);
    if (found) return { ...found };
    const base = slugFromTitle(name);
    let slug = base;
    for (let n = 2; this.idsBySlug.has(slug); n++) [slug] = slugCandidates(base, n, 1) as [string];
    const author: Author = { id: createId(), name, slug };
    this.byId.set(author.id, author);
    this.byName.set(name, author);
    this.idsBySlug.set(slug, author.id);
    return { ...author };
  }

  /** The author with this id; an unknown id is the caller's defect, as a foreign key makes it on SQL. */
  get(id: string): Author {
    const author = this.byId.get(id);
    if (!author) throw new Error(`no author has the id ${id}`);
    return { ...author };
  }

  /** The id of the author with this slug; null when none has it. */
  idOfSlug(slug: string): string | null {
    return this.idsBySlug.get(slug) ?? null;
  }
}
