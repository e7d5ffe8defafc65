import type { ListVersion, SlugLookup, VersionObserver, VisibleArticlesPage } from '../../../../application';
import type { Article, Term, TermKind } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { type FilterShape, filterShapeOf, filterValues, PROBE_IDS } from '../visible-articles-filter';
import {
  type ArticleRow,
  articleWithTermsOf,
  attachLinks,
  type LinkRow,
  queryOne,
  type VersionRow,
} from './article-rows';
import type { ReplicaRouting } from './replica-routing';

/** Reads of one article (by id or slug), a page of the list, the terms and the list's version; routed to a replica when one may serve. */
export class ArticleReads {
  constructor(
    private readonly routing: ReplicaRouting,
    private readonly sql: ArticleStatements,
    private readonly dialect: SqlDialect,
    /** Starts every version answered (see TypeOrmArticleRepository). */
    private readonly versionPrefix: string,
  ) {}

  findById(id: number): Promise<Article | null> {
    return this.routing.readYourWrites((connection) => this.findOn(connection, id));
  }

  findBySlug(slug: string): Promise<SlugLookup | null> {
    return this.routing.readYourWrites((connection) => this.findSlugOn(connection, slug));
  }

  listVisible(page: VisibleArticlesPage, onVersion?: VersionObserver): Promise<Article[]> {
    const shape = filterShapeOf(page);
    const after = page.afterId ?? 0;
    const rowsOf = (connection: SqlConnection, statementShape: FilterShape) =>
      connection.query<ArticleRow>(this.sql.pageOfVisible(statementShape), [
        page.limit,
        this.dialect.encodeTimestamp(page.moment),
        ...filterValues(this.dialect, page, statementShape, after + PROBE_IDS),
      ]);
    return this.routing.read(async (connection) => {
      // First, on this node: the page is this version's data or newer.
      if (onVersion) onVersion(await this.versionOn(connection, page.moment));
      let rows: ArticleRow[] | null = null;
      if (shape.search === 'indexed' && this.dialect.probesBeforeSearchIndex) {
        // A full page within the next ids holds the first matches: nothing after them comes first.
        const probed = await rowsOf(connection, { ...shape, search: 'probe' });
        if (probed.length === page.limit) rows = probed;
      }
      rows ??= await rowsOf(connection, shape);
      if (rows.length === 0) return [];
      const ids = JSON.stringify(rows.map((row) => row.id));
      const links = await connection.query<LinkRow>(this.sql.linksOfArticles, [ids]);
      return attachLinks(rows, links, this.dialect);
    });
  }

  visibleVersion(moment: Date): Promise<ListVersion> {
    return this.routing.read((connection) => this.versionOn(connection, moment));
  }

  listTerms(kind: TermKind): Promise<Term[]> {
    return this.routing.read((connection) => connection.query<Term>(this.sql.listTerms[kind], []));
  }

  private async versionOn(connection: SqlConnection, moment: Date): Promise<ListVersion> {
    const row = await queryOne<VersionRow>(connection, this.sql.dataVersion, [this.dialect.encodeTimestamp(moment)]);
    return this.versionPrefix + row.version;
  }

  private async findSlugOn(connection: SqlConnection, slug: string): Promise<SlugLookup | null> {
    const [row] = await connection.query<ArticleRow>(this.sql.findArticleBySlug, [slug]);
    if (row) return { found: 'current', article: articleWithTermsOf(row, this.dialect) };
    const [moved] = await connection.query<{ id: number; slug: string }>(this.sql.findEarlierSlug, [slug]);
    return moved ? { found: 'earlier', id: moved.id, slug: moved.slug } : null;
  }

  private async findOn(connection: SqlConnection, id: number): Promise<Article | null> {
    const [row] = await connection.query<ArticleRow>(this.sql.findArticle, [id]);
    return row ? articleWithTermsOf(row, this.dialect) : null;
  }
}
