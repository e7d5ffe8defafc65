import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

/**
 * The baseline's SQL: prepared statements (a `name` makes node-postgres parse and plan each once
 * per connection), one query for an article and one batched query for the links of any number of
 * articles. It reads and writes the service's own tables, created by the service's migrations.
 */

export interface TermJson {
  id: string;
  name: string;
  description: string | null;
}

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

export type Kind = 'tag' | 'category';
export type TermRef = { id: string } | { name: string; description: string | null };

export interface NewArticle {
  title: string | null;
  description: string;
  content: string;
  visible: boolean;
  tag: TermRef[];
  category: TermRef[];
}

export interface ArticleChanges {
  id: number;
  title?: string | null;
  description?: string;
  content?: string;
  visible?: boolean;
  tag?: TermRef[];
  category?: TermRef[];
}

/** A reference by id that names no term: the request is a 400 and writes nothing. */
export class UnknownTermError extends Error {
  constructor(kind: Kind, id: string) {
    super(`${kind}: no ${kind} with id "${id}"`);
  }
}

interface ArticleRow {
  id: number;
  title: string | null;
  description: string;
  content: string;
  visible: boolean;
  created_at: Date;
  updated_at: Date;
}

interface LinkRow extends TermJson {
  kind: Kind;
  article_id: number;
}

const ARTICLE_COLUMNS = 'id, title, description, content, visible, created_at, updated_at';

/**
 * The schema's folded copies for search (the service writes JavaScript's toLowerCase() of each
 * field): the floor writes them too, with SQL's lower(), the same for the ASCII bench data.
 */
const SEARCH_COLUMNS = 'search_title, search_description, search_content';
const SEARCH_VALUES = 'lower($1::varchar), lower($2::varchar), lower($3::text)';

/** Tags and categories of the articles the filter selects, ordered by name ("C" collation). */
const linksWhere = (filter: string) =>
  (['tag', 'category'] as const)
    .map((kind) => {
      const [links, terms, column] =
        kind === 'tag' ? ['article_tags', 'tags', 'tag_id'] : ['article_categories', 'categories', 'category_id'];
      return `SELECT '${kind}' AS kind, l.article_id, t.id, t.name, t.description
        FROM ${links} l JOIN ${terms} t ON t.id = l.${column} WHERE ${filter}`;
    })
    .join(' UNION ALL ')
    .concat(' ORDER BY name');

/**
 * The service's own read: each article with its terms as JSON arrays aggregated by PostgreSQL,
 * timestamps as epoch milliseconds. Used when the baseline runs with BASELINE_READS=aggregated.
 */
const aggregatedTerms = (links: string, terms: string, column: string) =>
  `(SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'description', t.description)
      ORDER BY t.name), '[]') FROM ${links} l JOIN ${terms} t ON t.id = l.${column} WHERE l.article_id = a.id)`;
const aggregatedArticles = (where: string) =>
  `SELECT a.id, a.title, a.description, a.content, a.visible,
          round(extract(epoch FROM a.created_at) * 1000)::float8 AS created_ms,
          round(extract(epoch FROM a.updated_at) * 1000)::float8 AS updated_ms,
          ${aggregatedTerms('article_tags', 'tags', 'tag_id')} AS tag,
          ${aggregatedTerms('article_categories', 'categories', 'category_id')} AS category
     FROM articles a ${where}`;

interface AggregatedRow extends Omit<ArticleRow, 'created_at' | 'updated_at'> {
  created_ms: number;
  updated_ms: number;
  tag: TermJson[];
  category: TermJson[];
}

const SQL = {
  aggregatedById: { name: 'aggregated_by_id', text: aggregatedArticles('WHERE a.id = $1') },
  aggregatedVisible: { name: 'aggregated_visible', text: aggregatedArticles('WHERE a.visible ORDER BY a.id') },
  articleById: { name: 'article_by_id', text: `SELECT ${ARTICLE_COLUMNS} FROM articles WHERE id = $1` },
  linksOfArticle: { name: 'links_of_article', text: linksWhere('l.article_id = $1') },
  visibleArticles: {
    name: 'visible_articles',
    text: `SELECT ${ARTICLE_COLUMNS} FROM articles WHERE visible ORDER BY id`,
  },
  linksOfVisible: {
    name: 'links_of_visible',
    text: linksWhere('l.article_id IN (SELECT id FROM articles WHERE visible)'),
  },
  insertArticle: {
    name: 'insert_article',
    text: `INSERT INTO articles (title, description, content, visible, created_at, updated_at, ${SEARCH_COLUMNS})
           VALUES ($1, $2, $3, $4, $5, $5, ${SEARCH_VALUES}) RETURNING ${ARTICLE_COLUMNS}`,
  },
  /** The article and its links in one statement. */
  insertArticleWithLinks: {
    name: 'insert_article_with_links',
    text: `WITH a AS (
             INSERT INTO articles (title, description, content, visible, created_at, updated_at, ${SEARCH_COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $5, ${SEARCH_VALUES}) RETURNING ${ARTICLE_COLUMNS}),
           lt AS (INSERT INTO article_tags (article_id, tag_id) SELECT a.id, unnest($6::varchar[]) FROM a),
           lc AS (INSERT INTO article_categories (article_id, category_id) SELECT a.id, unnest($7::varchar[]) FROM a)
           SELECT * FROM a`,
  },
  /** Creates the named terms that do not exist yet, both kinds in one statement. */
  insertNamedTerms: {
    name: 'insert_named_terms',
    text: `WITH t AS (INSERT INTO tags (id, name, description)
                      SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::text[]) ON CONFLICT DO NOTHING),
                c AS (INSERT INTO categories (id, name, description)
                      SELECT * FROM unnest($4::varchar[], $5::varchar[], $6::text[]) ON CONFLICT DO NOTHING)
           SELECT 1`,
  },
  termsByIdOrName: {
    name: 'terms_by_id_or_name',
    text: `SELECT 'tag' AS kind, id, name, description FROM tags WHERE id = ANY($1) OR name = ANY($2)
           UNION ALL
           SELECT 'category', id, name, description FROM categories WHERE id = ANY($3) OR name = ANY($4)
           ORDER BY name`,
  },
  /** Every field is set only when its flag is true: one prepared statement for every update. */
  updateArticle: {
    name: 'update_article',
    text: `UPDATE articles SET
             title = CASE WHEN $2::boolean THEN $3 ELSE title END,
             description = COALESCE($4, description),
             content = COALESCE($5, content),
             search_title = CASE WHEN $2::boolean THEN lower($3::varchar) ELSE search_title END,
             search_description = COALESCE(lower($4::varchar), search_description),
             search_content = COALESCE(lower($5::text), search_content),
             visible = COALESCE($6, visible),
             updated_at = $7
           WHERE id = $1 RETURNING ${ARTICLE_COLUMNS}`,
  },
  replaceLinks: {
    name: 'replace_links',
    text: `WITH dt AS (DELETE FROM article_tags WHERE $2::boolean AND article_id = $1 AND tag_id <> ALL($3::varchar[])),
                dc AS (DELETE FROM article_categories WHERE $4::boolean AND article_id = $1 AND category_id <> ALL($5::varchar[])),
                it AS (INSERT INTO article_tags (article_id, tag_id) SELECT $1, unnest($3::varchar[]) ON CONFLICT DO NOTHING),
                ic AS (INSERT INTO article_categories (article_id, category_id) SELECT $1, unnest($5::varchar[]) ON CONFLICT DO NOTHING)
           SELECT 1`,
  },
} satisfies Record<string, { name: string; text: string }>;

/** `links`: an article query, then one batched query for the links; `aggregated`: one query. */
export type ReadShape = 'links' | 'aggregated';

export class ArticleStore {
  constructor(
    private readonly pool: Pool,
    private readonly reads: ReadShape = 'links',
  ) {}

  async findById(id: number): Promise<ArticleJson | null> {
    if (this.reads === 'aggregated') {
      const rows = await this.pool.query<AggregatedRow>({ ...SQL.aggregatedById, values: [id] });
      return rows.rows.map(aggregatedJson)[0] ?? null;
    }
    const articles = await this.pool.query<ArticleRow>({ ...SQL.articleById, values: [id] });
    const row = articles.rows[0];
    if (!row) return null;
    const links = await this.pool.query<LinkRow>({ ...SQL.linksOfArticle, values: [id] });
    return withLinks([row], links.rows)[0] ?? null;
  }

  async listVisible(): Promise<ArticleJson[]> {
    if (this.reads === 'aggregated')
      return (await this.pool.query<AggregatedRow>(SQL.aggregatedVisible)).rows.map(aggregatedJson);
    const articles = await this.pool.query<ArticleRow>(SQL.visibleArticles);
    if (articles.rows.length === 0) return [];
    const links = await this.pool.query<LinkRow>(SQL.linksOfVisible);
    return withLinks(articles.rows, links.rows);
  }

  async create(article: NewArticle, now: Date): Promise<ArticleJson> {
    const fields = [article.title, article.description, article.content, article.visible, now];
    if (article.tag.length === 0 && article.category.length === 0) {
      // One statement is atomic on its own: no transaction needed.
      const inserted = await this.pool.query<ArticleRow>({ ...SQL.insertArticle, values: fields });
      return withLinks(inserted.rows, [])[0] as ArticleJson;
    }
    return this.inTransaction(async (client) => {
      const terms = await resolveTerms(client, article.tag, article.category);
      const inserted = await client.query<ArticleRow>({
        ...SQL.insertArticleWithLinks,
        values: [...fields, terms.tag.map((t) => t.id), terms.category.map((t) => t.id)],
      });
      return articleJson(inserted.rows[0] as ArticleRow, terms.tag, terms.category);
    });
  }

  update(changes: ArticleChanges, now: Date): Promise<ArticleJson | null> {
    return this.inTransaction(async (client) => {
      const updated = await client.query<ArticleRow>({
        ...SQL.updateArticle,
        values: [
          changes.id,
          changes.title !== undefined,
          changes.title ?? null,
          changes.description ?? null,
          changes.content ?? null,
          changes.visible ?? null,
          now,
        ],
      });
      const row = updated.rows[0];
      if (!row) return null;
      if (changes.tag || changes.category) {
        const terms = await resolveTerms(client, changes.tag ?? [], changes.category ?? []);
        await client.query({
          ...SQL.replaceLinks,
          values: [
            changes.id,
            changes.tag !== undefined,
            terms.tag.map((t) => t.id),
            changes.category !== undefined,
            terms.category.map((t) => t.id),
          ],
        });
      }
      const links = await client.query<LinkRow>({ ...SQL.linksOfArticle, values: [changes.id] });
      return withLinks([row], links.rows)[0] ?? null;
    });
  }

  private async inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Creates missing named terms, then reads every referenced term; unknown ids fail. */
async function resolveTerms(
  client: PoolClient,
  tag: TermRef[],
  category: TermRef[],
): Promise<Record<Kind, TermJson[]>> {
  const byKind = { tag: split(tag), category: split(category) };
  const find = async () =>
    (
      await client.query<TermJson & { kind: Kind }>({
        ...SQL.termsByIdOrName,
        values: [
          byKind.tag.ids,
          byKind.tag.named.map((r) => r.name),
          byKind.category.ids,
          byKind.category.named.map((r) => r.name),
        ],
      })
    ).rows;
  let found = await find();
  const isNew = (kind: Kind) => (r: { name: string }) => !found.some((row) => row.kind === kind && row.name === r.name);
  const newTag = byKind.tag.named.filter(isNew('tag'));
  const newCategory = byKind.category.named.filter(isNew('category'));
  // Names are inserted only when some are new, then everything is read again.
  if (newTag.length + newCategory.length > 0) {
    const columns = (named: { name: string; description: string | null }[]) => [
      named.map(() => newTermId()),
      named.map((reference) => reference.name),
      named.map((reference) => reference.description),
    ];
    await client.query({ ...SQL.insertNamedTerms, values: [...columns(newTag), ...columns(newCategory)] });
    found = await find();
  }
  const result: Record<Kind, TermJson[]> = { tag: [], category: [] };
  for (const kind of ['tag', 'category'] as const) {
    const rows = found.filter((row) => row.kind === kind);
    const missing = byKind[kind].ids.find((id) => !rows.some((row) => row.id === id));
    if (missing !== undefined) throw new UnknownTermError(kind, missing);
    result[kind] = rows.map(({ id, name, description }) => ({ id, name, description }));
  }
  return result;
}

/** Ids and names, each once; names in one order for every request, so concurrent inserts lock alike. */
function split(references: TermRef[]) {
  const ids = [...new Set(references.flatMap((r) => ('id' in r ? [r.id] : [])))];
  const named = new Map<string, { name: string; description: string | null }>();
  for (const r of references) if ('name' in r && !named.has(r.name)) named.set(r.name, r);
  return { ids, named: [...named.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

/** A cuid-like id of 24 characters; the baseline needs unique ids, not the service's generator. */
function newTermId(): string {
  return `b${randomBytes(15).toString('base64url').toLowerCase().slice(0, 23)}`;
}

function withLinks(rows: ArticleRow[], links: LinkRow[]): ArticleJson[] {
  const byArticle = new Map<number, Record<Kind, TermJson[]>>();
  for (const row of rows) byArticle.set(row.id, { tag: [], category: [] });
  for (const link of links) {
    byArticle.get(link.article_id)?.[link.kind].push({ id: link.id, name: link.name, description: link.description });
  }
  return rows.map((row) => {
    const terms = byArticle.get(row.id) as Record<Kind, TermJson[]>;
    return articleJson(row, terms.tag, terms.category);
  });
}

function aggregatedJson(row: AggregatedRow): ArticleJson {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    visible: row.visible,
    tag: row.tag,
    category: row.category,
    createdAt: new Date(row.created_ms).toISOString(),
    updatedAt: new Date(row.updated_ms).toISOString(),
  };
}

function articleJson(row: ArticleRow, tag: TermJson[], category: TermJson[]): ArticleJson {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    visible: row.visible,
    tag,
    category,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
