import {
  type Article,
  type NewArticleFieldsInput,
  newArticleFields,
  normalizeTermReferences,
  type TermReferenceInput,
} from '../../domain';
import type { ArticleRepository } from '../ports/article-repository';
import type { Clock } from '../ports/clock';

export interface CreateArticleInput extends NewArticleFieldsInput {
  tag?: readonly TermReferenceInput[];
  category?: readonly TermReferenceInput[];
}

export class CreateArticle {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateArticleInput): Promise<Article> {
    return this.articles.create({
      fields: newArticleFields(input),
      tags: normalizeTermReferences('tag', input.tag ?? []),
      categories: normalizeTermReferences('category', input.category ?? []),
      createdAt: this.clock.now(),
    });
  }
}
