import type { ArticleChanges, CreateArticleInput, NewArticle, WriteGuard } from '../../src/application';
import {
  type ArticleFields,
  type Author,
  type PublicationChange,
  slugFromTitle,
  type TermReference,
} from '../../src/domain';

/**
 * The moment the contract's lists are read at when a test is not about time: after every date
 * the builders and tests use, so that every article published at one of them is published.
 */
export const READ_MOMENT = new Date('2100-01-01T00:00:00.000Z');

/** Builders made so far: each one's default title, and so its slug, is its own. */
let built = 0;

/**
 * Builds what a repository's create() receives. Its default title is new each time (`A title 7`),
 * so that creates do not meet on one slug unless a test gives them one title.
 */
export class NewArticleBuilder {
  private fields: ArticleFields = {
    title: `A title ${++built}`,
    description: 'A description',
    content: 'Some content',
    featured: false,
  };
  private tags: TermReference[] = [];
  private categories: TermReference[] = [];
  private createdAt = new Date('2026-01-02T03:04:05.678Z');
  /** `created`: published at its creation, as a create without visible or publishedAt is. */
  private publishedAt: Date | null | 'created' = 'created';
  private slug: string | undefined;
  private author: Author | null = null;

  with(fields: Partial<ArticleFields>): this {
    this.fields = { ...this.fields, ...fields };
    return this;
  }

  /** A draft. */
  invisible(): this {
    this.publishedAt = null;
    return this;
  }

  /** Published (or scheduled) at this time. */
  publishedOn(at: Date | string | null): this {
    this.publishedAt = at === null ? null : new Date(at);
    return this;
  }

  /** This slug, given by the client (taken: SlugTakenError). */
  withSlug(slug: string): this {
    this.slug = slug;
    return this;
  }

  withTags(...references: (string | TermReference)[]): this {
    this.tags = references.map(toReference);
    return this;
  }

  withCategories(...references: (string | TermReference)[]): this {
    this.categories = references.map(toReference);
    return this;
  }

  at(createdAt: Date): this {
    this.createdAt = createdAt;
    return this;
  }

  /** Created under a key of this author (one the storage has). */
  byAuthor(author: Author | null): this {
    this.author = author;
    return this;
  }

  build(): NewArticle {
    return {
      fields: this.fields,
      publishedAt: this.publishedAt === 'created' ? this.createdAt : this.publishedAt,
      slug:
        this.slug === undefined
          ? { slug: slugFromTitle(this.fields.title), given: false }
          : { slug: this.slug, given: true },
      tags: this.tags,
      categories: this.categories,
      createdAt: this.createdAt,
      author: this.author,
    };
  }
}

export const aNewArticle = () => new NewArticleBuilder();

/** Builds what a repository's update() receives. */
export class ArticleChangesBuilder {
  private value: { -readonly [K in keyof ArticleChanges]: ArticleChanges[K] } = {
    fields: {},
    updatedAt: new Date('2026-02-03T04:05:06.789Z'),
  };

  with(fields: Partial<ArticleFields>): this {
    this.value.fields = { ...this.value.fields, ...fields };
    return this;
  }

  /** publishedAt set to this (null: a draft). */
  publishingOn(at: Date | string | null): this {
    return this.publication({ kind: 'set', publishedAt: at === null ? null : new Date(at) });
  }

  /** Published at `at` unless published at or before it already (visible: true). */
  publishingNow(at: Date | string): this {
    return this.publication({ kind: 'publish-now', at: new Date(at) });
  }

  publication(change: PublicationChange): this {
    this.value.publication = change;
    return this;
  }

  withSlug(slug: string): this {
    this.value.slug = slug;
    return this;
  }

  replacingTags(...references: (string | TermReference)[]): this {
    this.value.tags = references.map(toReference);
    return this;
  }

  replacingCategories(...references: (string | TermReference)[]): this {
    this.value.categories = references.map(toReference);
    return this;
  }

  at(updatedAt: Date): this {
    this.value.updatedAt = updatedAt;
    return this;
  }

  build(): ArticleChanges {
    return { ...this.value };
  }
}

export const someChanges = () => new ArticleChangesBuilder();

/** A plain string is a name reference; `{ id }` stays an id reference. */
function toReference(reference: string | TermReference): TermReference {
  return typeof reference === 'string' ? { name: reference, description: null } : reference;
}

/** What a client sends to create an article, through the use case or HTTP. */
export function aCreateInput(overrides: Partial<CreateArticleInput> = {}): CreateArticleInput {
  return { title: 'Hello', content: 'World', ...overrides };
}

/** A write guard that lets every write through: repository tests that are not about who may write. */
export const ANY_WRITER: WriteGuard = () => {};
