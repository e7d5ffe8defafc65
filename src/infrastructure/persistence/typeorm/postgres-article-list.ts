import type { Article, Term } from '../../../domain';
import { type ArticleQueryDialect, articlesQuery, TERM_KINDS } from './article-sql';
import { TABLE } from './entities';
import { type Statement, statement } from './postgres-statement';

/**
 * GET /article's read on PostgreSQL, shaped by its profile: node's CPU, not the database's, is
 * what runs out first on the benchmark machine, and most of it went into decoding and
 * allocating 4,500 link rows of five text columns for 900 articles. So the links arrive as one
 * row per article and kind holding the term ids in name order (json_agg of plain text, cheap
 * for PostgreSQL), plus one row per distinct term, in the same statement and snapshot; each
 * term becomes one object, shared by the articles that link it. Rows come as arrays.
 */
export function listStatements(dialect: ArticleQueryDialect, onlyVisible: boolean): [Statement, Statement] {
  const filter = onlyVisible ? 'WHERE l.article_id IN (SELECT id FROM articles WHERE visible)' : '';
  const links = TERM_KINDS.map((kind, index) => {
    const [linkTable, termTable, column] = [TABLE.link[kind], TABLE.term[kind], TABLE.linkTermColumn[kind]];
    return `SELECT ${index} AS kind, l.article_id, json_agg(t.id ORDER BY t.name) AS ids,
                   NULL AS id, NULL AS name, NULL AS description
              FROM ${linkTable} l JOIN ${termTable} t ON t.id = l.${column} ${filter}
             GROUP BY l.article_id
            UNION ALL
            SELECT ${index}, NULL, NULL, t.id, t.name, t.description
              FROM ${termTable} t WHERE t.id IN (SELECT l.${column} FROM ${linkTable} l ${filter})`;
  }).join(' UNION ALL ');
  const suffix = onlyVisible ? 'visible' : 'all';
  return [
    statement(`list_${suffix}`, articlesQuery(dialect, onlyVisible), 'array'),
    statement(`links_of_${suffix}`, links, 'array'),
  ];
}

/** id, title, description, content, visible, createdAt and updatedAt in epoch milliseconds. */
export type ArticleArrayRow = [number, string | null, string, string, boolean, number, number];
/** [kind index, article id, term ids] for links, [kind index, null, null, id, name, description] for terms. */
export type LinkArrayRow = [number, number | null, string[] | null, string | null, string | null, string | null];

export function assembleList(articleRows: readonly ArticleArrayRow[], linkRows: readonly LinkArrayRow[]): Article[] {
  const terms = TERM_KINDS.map(() => new Map<string, Term>());
  for (const [kind, , , id, name, description] of linkRows) {
    if (id !== null) terms[kind]?.set(id, { id, name: name as string, description });
  }
  const linked = TERM_KINDS.map(() => new Map<number, Term[]>());
  for (const [kind, articleId, ids] of linkRows) {
    if (articleId === null || ids === null) continue;
    const known = terms[kind] as Map<string, Term>;
    linked[kind]?.set(
      articleId,
      ids.flatMap((id) => known.get(id) ?? []),
    );
  }
  const [tags, categories] = linked as [Map<number, Term[]>, Map<number, Term[]>];
  return articleRows.map(([id, title, description, content, visible, createdAt, updatedAt]) => ({
    id,
    title,
    description,
    content,
    visible,
    tags: tags.get(id) ?? [],
    categories: categories.get(id) ?? [],
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  }));
}
