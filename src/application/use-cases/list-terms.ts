import type { Category, Tag } from '../../domain';
import type { ArticleRepository } from '../ports/article-repository';

export class ListTags {
  constructor(private readonly articles: ArticleRepository) {}

  execute(): Promise<Tag[]> {
    return this.articles.listTerms('tag');
  }
}

export class ListCategories {
  constructor(private readonly articles: ArticleRepository) {}

  execute(): Promise<Category[]> {
    return this.articles.listTerms('category');
  }
}
