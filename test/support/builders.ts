import type { ArticleChanges, CreateArticleInput, NewArticle } from '../../src/application';
import type { ArticleFields, TermReference } from '../../src/domain';

/** Builds what a repository's create() receives. */
export class NewArticleBuilder {
  private fields: ArticleFields = {
    title: 'A title',
    description: 'A description',
    content: 'Some content',
    visible: true,
  };
  private tags: TermReference[] = [];
  private categories: TermReference[] = [];
  private createdAt = new Date('2026-01-02T03:04:05.678Z');

  with(fields: Partial<ArticleFields>): this {
    this.fields = { ...this.fields, ...fields };
    return this;
  }

  invisible(): this {
    return this.with({ visible: false });
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

  build(): NewArticle {
    return { fields: this.fields, tags: this.tags, categories: this.categories, createdAt: this.createdAt };
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
