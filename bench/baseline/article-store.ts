import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { type ArticleStatus, articleStatusAt } from '../../src/domain/article';
import { readingTimeOf } from '../../src/domain/reading-time';
import { slugCandidates, slugFromTitle } from '../../src/domain/slug';
import { compareTermsByName } from '../../src/domain/term';

/**
 * The baseline's SQL: prepared statements (a `name` makes node-postgres parse and plan each once
 * per connection), one query for an article and one batched query for the links of any number of
 * articles. It reads and writes the service's own tables, created by the service's migrations,
 * with the service's filters and columns (src/infrastructure/persistence/typeorm/
 * article-statements.ts): lists are the articles published at the request's moment
 * (`published_at <= $1`); each article is read with published_at, featured and slug, in the
 * service's column order; an article's status, `visible` and reading time are derived as the
 * service derives them (the domain's own functions), and a create's slug is the domain's
 * slugFromTitle, settled by the unique index as the service settles it (free-slug.ts). An update
 * is the service's transaction: the article read under its row lock and kept as its next
 * revision, then the update (revision-keeping.ts, article-writes.ts).
 */

export interface TermJson {
  id: string;
  name: string;
  description: string | null;
}

/** The service's article JSON, field for field and in its order (presenters.ts). */
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
  slug: string;
  publishedAt: string | null;
  status: ArticleStatus;
  featured: boolean;
  readingTime: number;
  /** The floors make articles without keys: always null, as the service's without a key. */
  author: null;
}

export type Kind = 'tag' | 'category';
export type TermRef = { id: string } | { name: string; description: string | null };

/** How a write asks for publication: the service's PublicationChange (src/domain/publication.ts). */
export type Publication = { kind: 'set'; publishedAt: Date | null } | { kind: 'now' };

export interface NewArticle {
  title: string | null;
  description: string;
  content: string;
  featured: boolean;
  /** Absent: published at the create's time; null: a draft. */
  publishedAt?: Date | null;
  /** Absent: slugFromTitle(title). */
  slug?: string;
  tag: TermRef[];
  category: TermRef[];
}

export interface ArticleChanges {
  id: number;
  title?: string | null;
  description?: string;
  content?: string;
  featured?: boolean;
  publication?: Publication;
  slug?: string;
  tag?: TermRef[];
  category?: TermRef[];
}

/** A reference by id that names no term: the request is a 400 and writes nothing. */
export class UnknownTermError extends Error {
  constructor(kind: Kind, id: string) {
    super(`${kind}: no ${kind} with id "${id}"`);
  }
}

/** A slug the client gave that another current article has: the service answers 409. */
export class SlugTakenError extends Error {
  constructor(slug: string) {
    super(`slug: "${slug}" is taken by another article`);
  }
}

/** Past MAX_SLUG_TRIES lost races for a slug: the service answers 503 (nothing was written). */
export class SlugTriesExhaustedError extends Error {
  constructor() {
    super('storage is unavailable, try again later');
  }
}

/** Tries of a create whose slug concurrent creates keep taking first, as the service's MAX_SLUG_TRIES. */
const MAX_SLUG_TRIES = 25;

interface ArticleRow {
  id: number;
  title: string | null;
  description: string;
  content: string;
  published_at: Date | null;
  featured: boolean;
  slug: string;
  created_at: Date;
  updated_at: Date;
  version: number;
}

interface LinkRow extends TermJson {
  kind: Kind;
  article_id: number;
}

/** The service's article columns, in its order (article-statements.ts, columnsOf). */
const ARTICLE_COLUMNS =
  'id, title, description, content, published_at, featured, slug, created_at, updated_at, version';

/**
 * The schema's folded copies for search (the service writes JavaScript's toLowerCase() of each
 * field): the floor writes them too, with SQL's lower(), the same for the ASCII bench data.
 */
const SEARCH_COLUMNS = 'search_title, search_description, search_content';
const SEARCH_VALUES = 'lower($1::varchar), lower($2::varchar), lower($3::text)';
/**
 * An insert's columns and values, $1..$8: title, description, content, visible (written for the
 * previous release's instances, as the service does), created_at (also updated_at), published_at,
 * featured, slug.
 */
const INSERT_COLUMNS = `title, description, content, visible, created_at, updated_at, ${SEARCH_COLUMNS},
  published_at, featured, slug`;
const INSERT_VALUES = `$1, $2, $3, $4, $5, $5, ${SEARCH_VALUES}, $6, $7, $8`;

/** The articles published at $1: the service's filter (visible-articles-filter.ts). */
const PUBLISHED = 'published_at <= $1';

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
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint::float8`;
const aggregatedArticles = (where: string) =>
  `SELECT a.id, a.title, a.description, a.content, ${epochMs('a.published_at')} AS published_ms, a.featured, a.slug,
          ${epochMs('a.created_at')} AS created_ms, ${epochMs('a.updated_at')} AS updated_ms, a.version,
          ${aggregatedTerms('article_tags', 'tags', 'tag_id')} AS tag,
          ${aggregatedTerms('article_categories', 'categories', 'category_id')} AS category
     FROM articles a ${where}`;

interface AggregatedRow extends Omit<ArticleRow, 'published_at' | 'created_at' | 'updated_at'> {
  published_ms: number | null;
  created_ms: number;
  updated_ms: number;
  tag: TermJson[];
  category: TermJson[];
}

interface StreamedRow extends Omit<AggregatedRow, 'tag' | 'category'> {
  tag_ids: string[] | null;
  category_ids: string[] | null;
}

/** An article as the floor holds it between its read and its answer: the row and its terms. */
interface StoredArticle {
  row: ArticleRow;
  tag: TermJson[];
  category: TermJson[];
}

/** The published_at an update leaves: the service's publishedAtAfter ($6 'set' or 'now', $8 the value). */
const PUBLISHED_AT_AFTER = `CASE $6::text WHEN 'set' THEN $8::timestamptz
      WHEN 'now' THEN CASE WHEN published_at IS NOT NULL AND published_at <= $8::timestamptz THEN published_at
                           ELSE $8::timestamptz END
      ELSE published_at END`;

const SQL = {
  aggregatedById: { name: 'aggregated_by_id', text: aggregatedArticles('WHERE a.id = $1') },
  aggregatedByIdLocked: { name: 'aggregated_by_id_locked', text: aggregatedArticles('WHERE a.id = $1 FOR UPDATE') },
  aggregatedVisible: {
    name: 'aggregated_visible',
    text: aggregatedArticles(`WHERE a.${PUBLISHED} ORDER BY a.id`),
  },
  articleById: { name: 'article_by_id', text: `SELECT ${ARTICLE_COLUMNS} FROM articles WHERE id = $1` },
  articleByIdLocked: {
    name: 'article_by_id_locked',
    text: `SELECT ${ARTICLE_COLUMNS} FROM articles WHERE id = $1 FOR UPDATE`,
  },
  linksOfArticle: { name: 'links_of_article', text: linksWhere('l.article_id = $1') },
  visibleArticles: {
    name: 'visible_articles',
    text: `SELECT ${ARTICLE_COLUMNS} FROM articles WHERE ${PUBLISHED} ORDER BY id`,
  },
  /**
   * The articles published at $1 with their term ids (JSON arrays, any order), each kind
   * aggregated per article and merge-joined in id order: the whole list's one statement.
   */
  streamedVisible: {
    name: 'streamed_visible',
    text: `SELECT a.id, a.title, a.description, a.content, ${epochMs('a.published_at')} AS published_ms, a.featured,
             a.slug, ${epochMs('a.created_at')} AS created_ms, ${epochMs('a.updated_at')} AS updated_ms, a.version,
             t.ids AS tag_ids, c.ids AS category_ids
           FROM articles a
           LEFT JOIN (SELECT article_id, json_agg(tag_id) AS ids FROM article_tags GROUP BY article_id) t
             ON t.article_id = a.id
           LEFT JOIN (SELECT article_id, json_agg(category_id) AS ids FROM article_categories GROUP BY article_id) c
             ON c.article_id = a.id
           WHERE a.${PUBLISHED} ORDER BY a.id`,
  },
  allTerms: {
    name: 'all_terms',
    text: `SELECT 'tag' AS kind, id, name, description FROM tags
           UNION ALL SELECT 'category', id, name, description FROM categories ORDER BY name`,
  },
  linksOfVisible: {
    name: 'links_of_visible',
    text: linksWhere(`l.article_id IN (SELECT id FROM articles WHERE ${PUBLISHED})`),
  },
  insertArticle: {
    name: 'insert_article',
    text: `INSERT INTO articles (${INSERT_COLUMNS}) VALUES (${INSERT_VALUES}) RETURNING ${ARTICLE_COLUMNS}`,
  },
  /** The article and its links in one statement. */
  insertArticleWithLinks: {
    name: 'insert_article_with_links',
    text: `WITH a AS (
             INSERT INTO articles (${INSERT_COLUMNS}) VALUES (${INSERT_VALUES}) RETURNING ${ARTICLE_COLUMNS}),
           lt AS (INSERT INTO article_tags (article_id, tag_id) SELECT a.id, unnest($9::varchar[]) FROM a),
           lc AS (INSERT INTO article_categories (article_id, category_id) SELECT a.id, unnest($10::varchar[]) FROM a)
           SELECT * FROM a`,
  },
  /** Which of the candidate slugs in $1 current articles have: the service's slugs_taken_among. */
  slugsTakenAmong: {
    name: 'slugs_taken_among',
    text: `SELECT slug FROM articles WHERE slug = ANY($1::varchar[])`,
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
  /**
   * Keeps $4 (the article's JSON, version $3) as article $1's next revision, replaced at $2: the
   * service's insert_revision.
   */
  insertRevision: {
    name: 'insert_revision',
    text: `INSERT INTO article_revisions (article_id, revision, replaced_at, version, article)
           SELECT $1, COALESCE(MAX(revision), 0) + 1, $2, $3, $4 FROM article_revisions WHERE article_id = $1`,
  },
  /**
   * Every field is set only when its value is not null ($2: whether the nullable title is set):
   * one prepared statement for every update, as the service's update_article (its parameters
   * numbered without the ones the floor has no use for: expected versions, folded copies made in
   * JavaScript): publication $6 ('set': $8; 'now': $8 unless published at or before it already),
   * `visible` following published_at when that changes, featured $9, slug $10, updated_at the
   * later of $7 and the stored one, the version counted up.
   */
  updateArticle: {
    name: 'update_article',
    text: `UPDATE articles SET
             title = CASE WHEN $2::boolean THEN $3 ELSE title END,
             description = COALESCE($4, description),
             content = COALESCE($5, content),
             published_at = ${PUBLISHED_AT_AFTER},
             visible = CASE WHEN $6::text IS NULL OR ${PUBLISHED_AT_AFTER} IS NOT DISTINCT FROM published_at THEN visible
                            ELSE COALESCE(${PUBLISHED_AT_AFTER} <= $7::timestamptz, false) END,
             featured = COALESCE($9::boolean, featured),
             slug = COALESCE($10::varchar, slug),
             updated_at = GREATEST($7::timestamptz, updated_at),
             version = version + 1,
             search_title = CASE WHEN $2::boolean THEN lower($3::varchar) ELSE search_title END,
             search_description = COALESCE(lower($4::varchar), search_description),
             search_content = COALESCE(lower($5::text), search_content)
           WHERE id = $1 RETURNING ${ARTICLE_COLUMNS}`,
  },
  /** Article $2's slug $1 was replaced: it leads to the article now; $3, its new slug, leads nowhere else. */
  rememberSlug: {
    name: 'remember_slug',
    text: `WITH r AS (INSERT INTO article_slugs (slug, article_id) VALUES ($1, $2)
                      ON CONFLICT (slug) DO UPDATE SET article_id = excluded.article_id),
                f AS (DELETE FROM article_slugs WHERE slug = $3)
           SELECT 1`,
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
    const found = await this.read(this.pool, id, false);
    return found && presented(found, new Date());
  }

  /** The articles published now, in id order. */
  async listVisible(): Promise<ArticleJson[]> {
    const moment = new Date();
    if (this.reads === 'aggregated') {
      const rows = await this.pool.query<AggregatedRow>({ ...SQL.aggregatedVisible, values: [moment] });
      return rows.rows.map((row) => presented(ofAggregated(row), moment));
    }
    const articles = await this.pool.query<ArticleRow>({ ...SQL.visibleArticles, values: [moment] });
    if (articles.rows.length === 0) return [];
    const links = await this.pool.query<LinkRow>({ ...SQL.linksOfVisible, values: [moment] });
    return withLinks(articles.rows, links.rows).map((article) => presented(article, moment));
  }

  /**
   * The articles published now, in id order, handed to `onChunk` `rows` at a time as they come
   * (BASELINE_LIST=stream): the lean way to serve a list too large to hold. Every term read
   * first (the bench's datasets have 40), then a cursor in a read-only snapshot over one
   * statement that carries each article's term ids; the next FETCH is sent before a chunk is
   * handed on, so that the database reads it meanwhile.
   */
  async streamVisible(rows: number, onChunk: (articles: ArticleJson[]) => Promise<void>): Promise<void> {
    const moment = new Date();
    const client = await this.pool.connect();
    let next: Promise<StreamedRow[]> | null = null;
    let failed = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const terms: Record<Kind, Map<string, TermJson>> = { tag: new Map(), category: new Map() };
      for (const { kind, ...term } of (await client.query<TermJson & { kind: Kind }>(SQL.allTerms)).rows)
        terms[kind].set(term.id, term);
      await client.query({
        text: `DECLARE visible NO SCROLL CURSOR FOR ${SQL.streamedVisible.text}`,
        values: [moment],
      });
      const fetch = () => client.query<StreamedRow>(`FETCH ${rows} FROM visible`).then((result) => result.rows);
      next = fetch();
      for (;;) {
        const chunk: StreamedRow[] = await next;
        next = chunk.length === rows ? fetch() : null;
        await onChunk(chunk.map((row) => presented(ofStreamed(row, terms), moment)));
        if (next === null) break;
      }
      await client.query('COMMIT');
    } catch (error) {
      failed = true;
      await next?.catch(() => {});
      throw error;
    } finally {
      // After a failure the connection may be mid-statement: closed rather than reused.
      client.release(failed);
    }
  }

  /**
   * The create with its slug: the one asked for, else the title's, tried as it is first; when
   * the unique index refuses it, the smallest free `-n` of that base, again after each lost race
   * (the service's createWithFreeSlug).
   */
  async create(article: NewArticle, now: Date): Promise<ArticleJson> {
    const base = article.slug ?? slugFromTitle(article.title);
    let slug = base;
    for (let tries = 1; ; tries++) {
      try {
        return presented(await this.createOnce(article, slug, now), now);
      } catch (error) {
        if (!isSlugConflict(error)) throw error;
        if (article.slug !== undefined) throw new SlugTakenError(article.slug);
        if (tries === MAX_SLUG_TRIES) throw new SlugTriesExhaustedError();
      }
      slug = await this.smallestFreeSlug(base);
    }
  }

  /** The first candidate of `base` no current article has, read 50 at a time (the service's free-slug.ts). */
  private async smallestFreeSlug(base: string): Promise<string> {
    for (let from = 1; ; from += 50) {
      const candidates = slugCandidates(base, from, 50);
      const taken = await this.pool.query<{ slug: string }>({ ...SQL.slugsTakenAmong, values: [candidates] });
      const slugs = new Set(taken.rows.map((row) => row.slug));
      const free = candidates.find((candidate) => !slugs.has(candidate));
      if (free !== undefined) return free;
    }
  }

  private async createOnce(article: NewArticle, slug: string, now: Date): Promise<StoredArticle> {
    const publishedAt = article.publishedAt === undefined ? now : article.publishedAt;
    // `visible` as the previous release reads it: published at the write's time.
    const visible = publishedAt !== null && publishedAt.getTime() <= now.getTime();
    const fields = [
      article.title,
      article.description,
      article.content,
      visible,
      now,
      publishedAt,
      article.featured,
      slug,
    ];
    if (article.tag.length === 0 && article.category.length === 0) {
      // One statement is atomic on its own: no transaction needed.
      const inserted = await this.pool.query<ArticleRow>({ ...SQL.insertArticle, values: fields });
      return { row: inserted.rows[0] as ArticleRow, tag: [], category: [] };
    }
    return this.inTransaction(async (client) => {
      const terms = await resolveTerms(client, article.tag, article.category);
      const inserted = await client.query<ArticleRow>({
        ...SQL.insertArticleWithLinks,
        values: [...fields, terms.tag.map((t) => t.id), terms.category.map((t) => t.id)],
      });
      return { row: inserted.rows[0] as ArticleRow, tag: terms.tag, category: terms.category };
    });
  }

  /**
   * The service's update: one transaction that reads the article under its row lock, keeps it as
   * its next revision (the same JSON as the service's, so that the service reads it back), then
   * updates it, remembers a replaced slug, and replaces the links asked for. Null, nothing
   * written, for an unknown id.
   */
  async update(changes: ArticleChanges, now: Date): Promise<ArticleJson | null> {
    try {
      return await this.updateOnce(changes, now);
    } catch (error) {
      if (changes.slug !== undefined && isSlugConflict(error)) throw new SlugTakenError(changes.slug);
      throw error;
    }
  }

  private async updateOnce(changes: ArticleChanges, now: Date): Promise<ArticleJson | null> {
    const updated = await this.inTransaction(async (client) => {
      const before = await this.read(client, changes.id, true);
      if (!before) return null;
      await client.query({
        ...SQL.insertRevision,
        values: [changes.id, now, before.row.version, storedArticleJson(before)],
      });
      const { publication } = changes;
      const result = await client.query<ArticleRow>({
        ...SQL.updateArticle,
        values: [
          changes.id,
          changes.title !== undefined,
          changes.title ?? null,
          changes.description ?? null,
          changes.content ?? null,
          publication?.kind ?? null,
          now,
          publication === undefined ? null : publication.kind === 'now' ? now : publication.publishedAt,
          changes.featured ?? null,
          changes.slug ?? null,
        ],
      });
      const row = result.rows[0] as ArticleRow;
      if (before.row.slug !== row.slug) {
        await client.query({ ...SQL.rememberSlug, values: [before.row.slug, changes.id, row.slug] });
      }
      // The links are those read under the row's lock unless this update replaces them.
      if (!changes.tag && !changes.category) return { row, tag: before.tag, category: before.category };
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
      const links = await client.query<LinkRow>({ ...SQL.linksOfArticle, values: [changes.id] });
      return withLinks([row], links.rows)[0] as StoredArticle;
    });
    return updated && presented(updated, now);
  }

  /** Article `id` with its terms, in the read shape of this store; `locked`: its row locked until the transaction ends. */
  private async read(on: Pool | PoolClient, id: number, locked: boolean): Promise<StoredArticle | null> {
    if (this.reads === 'aggregated') {
      const statement = locked ? SQL.aggregatedByIdLocked : SQL.aggregatedById;
      const rows = await on.query<AggregatedRow>({ ...statement, values: [id] });
      const row = rows.rows[0];
      return row ? ofAggregated(row) : null;
    }
    const articles = await on.query<ArticleRow>({
      ...(locked ? SQL.articleByIdLocked : SQL.articleById),
      values: [id],
    });
    const row = articles.rows[0];
    if (!row) return null;
    const links = await on.query<LinkRow>({ ...SQL.linksOfArticle, values: [id] });
    return withLinks([row], links.rows)[0] ?? null;
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

/** The unique index on articles.slug refused a write (the service's isSlugConflict, on PostgreSQL). */
function isSlugConflict(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'articles_slug_key';
}

/**
 * The article as the service keeps it in a revision (stored-article-json.ts): its fields without
 * the id, in the order of the service's Article, terms included, instants in epoch ms.
 */
function storedArticleJson({ row, tag, category }: StoredArticle): string {
  return JSON.stringify({
    title: row.title,
    description: row.description,
    content: row.content,
    publishedAt: row.published_at?.getTime() ?? null,
    featured: row.featured,
    slug: row.slug,
    tags: tag,
    categories: category,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    version: row.version,
  });
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

function withLinks(rows: ArticleRow[], links: LinkRow[]): StoredArticle[] {
  const byArticle = new Map<number, Record<Kind, TermJson[]>>();
  for (const row of rows) byArticle.set(row.id, { tag: [], category: [] });
  for (const link of links) {
    byArticle.get(link.article_id)?.[link.kind].push({ id: link.id, name: link.name, description: link.description });
  }
  return rows.map((row) => {
    const terms = byArticle.get(row.id) as Record<Kind, TermJson[]>;
    return { row, tag: terms.tag, category: terms.category };
  });
}

function ofAggregated(row: AggregatedRow): StoredArticle {
  return { row: rowOfMs(row), tag: row.tag, category: row.category };
}

/** The row of a statement that answers instants in epoch milliseconds. */
function rowOfMs(row: Omit<AggregatedRow, 'tag' | 'category'>): ArticleRow {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    published_at: row.published_ms === null ? null : new Date(row.published_ms),
    featured: row.featured,
    slug: row.slug,
    created_at: new Date(row.created_ms),
    updated_at: new Date(row.updated_ms),
    version: row.version,
  };
}

/** A streamed row's article, its terms (read at the stream's start) in the service's name order. */
function ofStreamed(row: StreamedRow, terms: Record<Kind, Map<string, TermJson>>): StoredArticle {
  const termsOf = (known: Map<string, TermJson>, ids: string[] | null) =>
    (ids ?? []).map((id) => known.get(id) as TermJson).sort(compareTermsByName);
  return {
    row: rowOfMs(row),
    tag: termsOf(terms.tag, row.tag_ids),
    category: termsOf(terms.category, row.category_ids),
  };
}

/** The article as the service presents it to a read at `moment` (presenters.ts, presentArticle). */
function presented({ row, tag, category }: StoredArticle, moment: Date): ArticleJson {
  const status = articleStatusAt(row.published_at, moment);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    content: row.content,
    visible: status === 'published',
    tag,
    category,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    slug: row.slug,
    publishedAt: row.published_at?.toISOString() ?? null,
    status,
    featured: row.featured,
    readingTime: readingTimeOf(row.content),
    author: null,
  };
}
