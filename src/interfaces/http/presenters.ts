import type { Article, Term } from '../../domain';

export interface TermJson {
  id: string;
  name: string;
  description: string | null;
}

/** Exactly the nine fields of the contract, in its order. */
export interface ArticleJson {
  id: number;
  title: string | null;
  description: string;
  content: string;
  visible: boolean;
  tag: TermJson[];
  category: TermJson[];
  createdAt: string;
  updatedAt: string;
}

export function presentTerm(term: Term): TermJson {
  return { id: term.id, name: term.name, description: term.description };
}

export function presentArticle(article: Article): ArticleJson {
  return {
    id: article.id,
    title: article.title,
    description: article.description,
    content: article.content,
    visible: article.visible,
    tag: article.tags.map(presentTerm),
    category: article.categories.map(presentTerm),
    createdAt: article.createdAt.toISOString(),
    updatedAt: article.updatedAt.toISOString(),
  };
}
