import { Mutex } from 'async-mutex';
import { type DataSource, type EntityManager, In } from 'typeorm';
import type { ArticleChanges, ArticleListFilter, ArticleRepository, NewArticle } from '../../../application';
import {
  type Article,
  compareByCodePoint,
  isReferenceById,
  isReferenceByName,
  StorageUnavailableError,
  sortTermsByName,
  type Term,
  type TermKind,
  type TermReference,
  UnknownReferenceError,
} from '../../../domain';
import { newTermId } from '../term-id';
import {
  type ArticleRecord,
  type ArticleTermLinkRecord,
  ENTITY,
  type SqlDialect,
  TABLE,
  type TermRecord,
} from './entities';
import { laterUpdatedAt } from './monotonic-updated-at';
import { POSTGRES_LIMITS } from './postgres-limits';
import { withinDeadline } from './storage-deadline';
import { translateStorageError } from './storage-errors';

const TERM_KINDS: readonly TermKind[] = ['tag', 'category'];

interface LinkRow extends TermRecord {
  kind: TermKind;
  articleId: number;
}

type LinkScope = { articleId: number } | { onlyVisible: boolean };

/** Articles with their tags and categories on PostgreSQL or SQLite, through TypeORM. */
export class TypeOrmArticleRepository implements ArticleRepository {
  private readonly dialect: SqlDialect;
  /**
   * better-sqlite3 gives TypeORM a single connection, on which concurrent transactions would
   * interleave (and reads would see uncommitted writes), so SQLite work runs one call at a time.
   * PostgreSQL runs calls concurrently on its pool.
   */
  private readonly sqliteLock: Mutex | null;

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.sqliteLock = this.dialect === 'sqlite' ? new Mutex() : null;
  }

  create(article: NewArticle): Promise<Article> {
    return this.run(() =>
      this.dataSource.transaction(async (manager) => {
        const tags = await this.resolveTerms(manager, 'tag', article.tags);
        const categories = await this.resolveTerms(manager, 'category', article.categories);
        const record: Omit<ArticleRecord, 'id'> = {
          ...article.fields,
          createdAt: article.createdAt,
          updatedAt: article.createdAt,
        };
        const inserted = await manager.createQueryBuilder().insert().into(ENTITY.article).values(record).execute();
        const id = Number(inserted.identifiers[0]?.id);
        await this.insertLinks(manager, 'tag', id, tags);
        await this.insertLinks(manager, 'category', id, categories);
        return { ...record, id, tags: sortTermsByName(tags), categories: sortTermsByName(categories) };
      }),
    );
  }

  update(id: number, changes: ArticleChanges): Promise<Article | null> {
    return this.run(() =>
      this.dataSource.transaction(async (manager) => {
        const updatedAt = laterUpdatedAt(this.dataSource, changes.updatedAt);
        const result = await manager
          .createQueryBuilder()
          .update(ENTITY.article)
          .set({ ...changes.fields, updatedAt: updatedAt.value })
          .where('id = :id', { id, updatedAt: updatedAt.parameter })
          .execute();
        if (!result.affected) return null;
        const replacements = { tag: changes.tags, category: changes.categories };
        for (const kind of TERM_KINDS) {
          const references = replacements[kind];
          if (!references) continue;
          const terms = await this.resolveTerms(manager, kind, references);
          await manager.delete(ENTITY.link[kind], { articleId: id });
          await this.insertLinks(manager, kind, id, terms);
        }
        const record = await manager.findOneByOrFail<ArticleRecord>(ENTITY.article, { id });
        const [article] = await this.withTerms(manager, [record], { articleId: id });
        return article ?? null;
      }),
    );
  }

  findById(id: number): Promise<Article | null> {
    return this.run(async () => {
      const manager = this.dataSource.manager;
      const record = await manager.findOneBy<ArticleRecord>(ENTITY.article, { id });
      if (!record) return null;
      const [article] = await this.withTerms(manager, [record], { articleId: id });
      return article ?? null;
    });
  }

  list(filter: ArticleListFilter): Promise<Article[]> {
    return this.run(async () => {
      const manager = this.dataSource.manager;
      const records = await manager.find<ArticleRecord>(ENTITY.article, {
        where: filter.includeInvisible ? {} : { visible: true },
        order: { id: 'ASC' },
      });
      return this.withTerms(manager, records, { onlyVisible: !filter.includeInvisible });
    });
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.run(async () => {
      const records = await this.dataSource.manager.find<TermRecord>(ENTITY.term[kind], { order: { name: 'ASC' } });
      return records.map(toTerm);
    });
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    // After shutdown (or before start) the connection is gone: the client may retry elsewhere.
    if (!this.dataSource.isInitialized) throw new StorageUnavailableError();
    try {
      // SQLite runs in-process and synchronously: there is nothing to wait for past a deadline.
      return await (this.sqliteLock
        ? this.sqliteLock.runExclusive(work)
        : withinDeadline(work(), POSTGRES_LIMITS.callDeadlineMs));
    } catch (error) {
      throw translateStorageError(error);
    }
  }

  /**
   * Id references must exist; name references are found or created. Inserting with "on
   * conflict do nothing" and then reading by name stays correct when concurrent requests
   * create the same name: the second insert waits for the first and then reads its row.
   */
  private async resolveTerms(
    manager: EntityManager,
    kind: TermKind,
    references: readonly TermReference[],
  ): Promise<Term[]> {
    const ids = references.filter(isReferenceById).map((reference) => reference.id);
    const named = references
      .filter(isReferenceByName)
      // One order for every request, so that concurrent inserts of several names lock alike.
      .sort((a, b) => compareByCodePoint(a.name, b.name));

    const byId = new Map<string, Term>();
    if (ids.length > 0) {
      const found = await manager.findBy<TermRecord>(ENTITY.term[kind], { id: In(ids) });
      for (const record of found) byId.set(record.id, toTerm(record));
      const missing = ids.find((id) => !byId.has(id));
      if (missing !== undefined) throw new UnknownReferenceError(kind, missing);
    }
    const byName = new Map<string, Term>();
    if (named.length > 0) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(ENTITY.term[kind])
        .values(named.map(({ name, description }) => ({ id: newTermId(), name, description })))
        .orIgnore()
        .execute();
      const found = await manager.findBy<TermRecord>(ENTITY.term[kind], { name: In(named.map((r) => r.name)) });
      for (const record of found) byName.set(record.name, toTerm(record));
    }
    const terms = references.map((reference) =>
      isReferenceByName(reference) ? byName.get(reference.name) : byId.get(reference.id),
    );
    const unique = new Map<string, Term>();
    for (const term of terms) if (term) unique.set(term.id, term);
    return [...unique.values()];
  }

  private async insertLinks(manager: EntityManager, kind: TermKind, articleId: number, terms: readonly Term[]) {
    if (terms.length === 0) return;
    const links: ArticleTermLinkRecord[] = terms.map((term) => ({ articleId, termId: term.id }));
    await manager.createQueryBuilder().insert().into(ENTITY.link[kind]).values(links).execute();
  }

  /**
   * Loads the tags and categories of the given articles in one query (a UNION of both link
   * tables): no query per article, and no cartesian product of tags × categories.
   */
  private async withTerms(manager: EntityManager, records: ArticleRecord[], scope: LinkScope): Promise<Article[]> {
    if (records.length === 0) return [];
    // The article id appears once in each half of the UNION.
    const parameters = 'articleId' in scope ? [scope.articleId, scope.articleId] : [];
    const rows: LinkRow[] = await manager.query(this.linkQuery(scope), parameters);
    const terms = new Map<number, Record<TermKind, Term[]>>(
      records.map((record) => [record.id, { tag: [], category: [] }]),
    );
    for (const row of rows) terms.get(Number(row.articleId))?.[row.kind].push(toTerm(row));
    return records.map((record) => {
      const linked = terms.get(record.id) ?? { tag: [], category: [] };
      return { ...toArticleFields(record), tags: linked.tag, categories: linked.category };
    });
  }

  private linkQuery(scope: LinkScope): string {
    const filter = (position: number) =>
      'articleId' in scope
        ? `WHERE l.article_id = ${this.dialect === 'postgres' ? `$${position}` : '?'}`
        : scope.onlyVisible
          ? `WHERE l.article_id IN (SELECT id FROM ${TABLE.article} WHERE visible = TRUE)`
          : '';
    const select = (kind: TermKind, position: number) =>
      `SELECT '${kind}' AS kind, l.article_id AS "articleId", t.id, t.name, t.description
         FROM ${TABLE.link[kind]} l JOIN ${TABLE.term[kind]} t ON t.id = l.${TABLE.linkTermColumn[kind]}
         ${filter(position)}`;
    // Names sort in code-point order: "C" collation on PostgreSQL, BINARY on SQLite.
    return `${select('tag', 1)} UNION ALL ${select('category', 2)} ORDER BY name`;
  }
}

function toTerm(record: TermRecord): Term {
  return { id: record.id, name: record.name, description: record.description };
}

function toArticleFields(record: ArticleRecord): Omit<Article, 'tags' | 'categories'> {
  return {
    id: record.id,
    title: record.title,
    description: record.description,
    content: record.content,
    visible: record.visible,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
