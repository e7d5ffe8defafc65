/** What a write intends an article to look like, in the fields the load writes and checks. */
export interface ArticleState {
  title: string | null;
  content: string;
  visible: boolean;
  tags: string[];
  categories: string[];
}

/** An article as the API answers it (the fields the checks read). */
export interface ArticleAnswer {
  id: number;
  title: string | null;
  content: string;
  visible: boolean;
  tag: { name: string }[];
  category: { name: string }[];
  createdAt: string;
  updatedAt: string;
}

export function stateOf(article: ArticleAnswer): ArticleState {
  return {
    title: article.title,
    content: article.content,
    visible: article.visible,
    tags: article.tag.map((term) => term.name),
    categories: article.category.map((term) => term.name),
  };
}

/** Same fields and the same set of term names (the API orders terms by name). */
export function sameState(a: ArticleState, b: ArticleState): boolean {
  const names = (list: string[]) => [...list].sort().join('\u0001');
  return (
    a.title === b.title &&
    a.content === b.content &&
    a.visible === b.visible &&
    names(a.tags) === names(b.tags) &&
    names(a.categories) === names(b.categories)
  );
}

/** The body that writes this state, for create or (with an id) update. */
export function bodyFor(state: ArticleState, id?: number): object {
  return {
    ...(id === undefined ? {} : { id }),
    title: state.title,
    content: state.content,
    visible: state.visible,
    tag: state.tags.map((name) => ({ name })),
    category: state.categories.map((name) => ({ name })),
  };
}
