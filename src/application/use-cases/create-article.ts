import {
  type Actor,
  type Article,
  checkSlug,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  type NewArticleFieldsInput,
  newArticleFields,
  normalizeTermReferences,
  type PublicationInput,
  publishedAtOfNewArticle,
  slugFromTitle,
  type TermReferenceInput,
} from '../../domain';
import { publicationOfCreate } from '../access/article-access';
import type { ArticleRepository, NewArticle } from '../ports/article-repository';
import type { Clock } from '../ports/clock';
import type { Fingerprint } from '../ports/fingerprint';

export interface CreateArticleInput extends NewArticleFieldsInput, PublicationInput {
  /** Absent: made from the title (slugFromTitle). */
  slug?: string;
  tag?: readonly TermReferenceInput[];
  category?: readonly TermReferenceInput[];
}

/** How creates under an Idempotency-Key are recognised. */
export interface IdempotencySettings {
  readonly fingerprint: Fingerprint;
  /** How long a key's record answers a retry; past it, the key is processed anew. */
  readonly retentionMs: number;
}

/** A create under a key: the article, and whether it is the stored answer of an earlier request. */
export interface KeyedCreation {
  readonly article: Article;
  readonly replayed: boolean;
}

export class CreateArticle {
  /** Without `idempotency`, only execute() may be used (a test, a seed). */
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly idempotency?: IdempotencySettings,
  ) {}

  /** The article records `actor`'s author; a contributor's is a draft (publicationOfCreate). */
  async execute(input: CreateArticleInput, actor: Actor): Promise<Article> {
    return this.articles.create(this.newArticle(input, actor));
  }

  /**
   * The first request with a key creates the article and stores the key with it. Within the
   * retention, the same request again answers that article (replayed) and writes nothing;
   * another request under the key is IdempotencyKeyReusedError; a key whose first request has
   * not finished is IdempotencyKeyInProgressError. A create that fails stores no key.
   */
  async executeWithKey(input: CreateArticleInput, key: string, actor: Actor): Promise<KeyedCreation> {
    if (!this.idempotency) throw new Error('CreateArticle was built without idempotency settings');
    const article = this.newArticle(input, actor);
    const fingerprint = this.idempotency.fingerprint.of(input);
    const expiredUpTo = new Date(article.createdAt.getTime() - this.idempotency.retentionMs);
    const result = await this.articles.createWithKey(article, { key, fingerprint, expiredUpTo });
    switch (result.outcome) {
      case 'created':
        return { article: result.article, replayed: false };
      case 'stored':
        if (result.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
        return { article: result.article, replayed: true };
      case 'in-progress':
        throw new IdempotencyKeyInProgressError();
    }
  }

  private newArticle(input: CreateArticleInput, actor: Actor): NewArticle {
    const publication = publicationOfCreate(actor, input);
    const fields = newArticleFields(input);
    const createdAt = this.clock.now();
    if (input.slug !== undefined) checkSlug('slug', input.slug);
    return {
      fields,
      publishedAt: publishedAtOfNewArticle(publication, createdAt),
      author: actor.kind === 'key' ? actor.author : null,
      slug:
        input.slug === undefined
          ? { slug: slugFromTitle(fields.title), given: false }
          : { slug: input.slug, given: true },
      tags: normalizeTermReferences('tag', input.tag ?? []),
      categories: normalizeTermReferences('category', input.category ?? []),
      createdAt,
    };
  }
}
