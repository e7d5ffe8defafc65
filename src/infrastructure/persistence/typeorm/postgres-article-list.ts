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

/** Plain indexed loops: destructuring and flatMap here measured several times slower (a list has 900 rows). */
export function assembleList(articleRows: readonly ArticleArrayRow[], linkRows: readonly LinkArrayRow[]): Article[] {
  const terms = TERM_KINDS.map(() => new Map<string, Term>());
  for (const row of linkRows) {
    const id = row[3];
    if (id !== null) terms[row[0]]?.set(id, { id, name: row[4] as string, description: row[5] });
  }
  const linked = TERM_KINDS.map(() => new Map<number, Term[]>());
  for (const row of linkRows) {
    const articleId = row[1];
    const ids = row[2];
    if (articleId === null || ids === null) continue;
    const known = terms[row[0]] as Map<string, Term>;
    const articleTerms: Term[] = [];
    for (const id of ids) {
      const term = known.get(id);
      if (term) articleTerms.push(term);
    }
    linked[row[0]]?.set(articleId, articleTerms);
  }
  const [tags, categories] = linked as [Map<number, Term[]>, Map<number, Term[]>];
  const articles: Article[] = new Array(articleRows.length);
  for (let index = 0; index < articleRows.length; index++) {
    const row = articleRows[index] as ArticleArrayRow;
    articles[index] = {
      id: row[0],
      title: row[1],
      description: row[2],
      content: row[3],
      visible: row[4],
      tags: tags.get(row[0]) ?? [],
      categories: categories.get(row[0]) ?? [],
      createdAt: new Date(row[5]),
      updatedAt: new Date(row[6]),
    };
  }
  return articles;
}
