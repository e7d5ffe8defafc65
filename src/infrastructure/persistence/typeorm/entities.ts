import { EntitySchema } from 'typeorm';
import type { TermKind } from '../../../domain';
import type { SqlDatabaseConfig } from '../../config/config';

/** Which database the entities describe; SqlDialect (sql-dialect.ts) is the statements' side. */
export type DatabaseKind = SqlDatabaseConfig['kind'];

/** A timestamp with its milliseconds, as each database's column holds it. */
const TIMESTAMP_COLUMN = {
  postgres: { type: 'timestamptz', precision: 3 },
  sqlite: { type: 'datetime' },
} as const;

/** Rows as TypeORM reads and writes them; only this folder sees them. */
export interface ArticleRecord {
  id: number;
  title: string | null;
  description: string;
  content: string;
  visible: boolean;
  publishedAt: Date | null;
  featured: boolean;
  slug: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export interface TermRecord {
  id: string;
  name: string;
  description: string | null;
}

export interface ArticleTermLinkRecord {
  articleId: number;
  termId: string;
}

export const ENTITY = {
  article: 'Article',
  term: { tag: 'Tag', category: 'Category' },
  link: { tag: 'ArticleTag', category: 'ArticleCategory' },
} as const satisfies {
  article: string;
  term: Record<TermKind, string>;
  link: Record<TermKind, string>;
};

export const TABLE = {
  article: 'articles',
  term: { tag: 'tags', category: 'categories' },
  link: { tag: 'article_tags', category: 'article_categories' },
  linkTermColumn: { tag: 'tag_id', category: 'category_id' },
} as const;

/**
 * Entity schemas for one dialect. The migrations own the schema; these only describe it to
 * TypeORM. The column types differ where the dialects do: timestamps keep milliseconds on both.
 */
export function buildEntitySchemas(kind: DatabaseKind): EntitySchema[] {
  const timestamp = TIMESTAMP_COLUMN[kind];

  const article = new EntitySchema<ArticleRecord>({
    name: ENTITY.article,
    tableName: TABLE.article,
    columns: {
      id: { type: 'integer', primary: true, generated: 'increment' },
      title: { type: 'varchar', length: 200, nullable: true },
      description: { type: 'varchar', length: 1000 },
      content: { type: 'text' },
      visible: { type: 'boolean' },
      publishedAt: { ...timestamp, name: 'published_at', nullable: true },
      featured: { type: 'boolean', default: false },
      slug: { type: 'varchar', length: 185, unique: true },
      createdAt: { ...timestamp, name: 'created_at' },
      updatedAt: { ...timestamp, name: 'updated_at' },
      version: { type: 'integer', default: 1 },
    },
  });

  const terms = (['tag', 'category'] as const).flatMap((kind) => [
    new EntitySchema<TermRecord>({
      name: ENTITY.term[kind],
      tableName: TABLE.term[kind],
      columns: {
        id: { type: 'varchar', length: 32, primary: true },
        name: { type: 'varchar', length: 64, unique: true },
        description: { type: 'text', nullable: true },
      },
    }),
    new EntitySchema<ArticleTermLinkRecord>({
      name: ENTITY.link[kind],
      tableName: TABLE.link[kind],
      columns: {
        articleId: { type: 'integer', primary: true, name: 'article_id' },
        termId: { type: 'varchar', length: 32, primary: true, name: TABLE.linkTermColumn[kind] },
      },
    }),
  ]);

  return [article, ...terms];
}
