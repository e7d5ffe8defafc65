import type { DatabaseKind } from '../entities';
import { InitialSchemaPostgres1763769600000 } from './postgres/1763769600000-initial-schema';
import { ArticleVersionsAndFilterIndexesPostgres1795400000000 } from './postgres/1795400000000-article-versions-and-filter-indexes';
import { IdempotencyKeysPostgres1795500000000 } from './postgres/1795500000000-idempotency-keys';
import { ArticleSearchPostgres1795600000000 } from './postgres/1795600000000-article-search';
import { PublishingPostgres1795700000000 } from './postgres/1795700000000-publishing';
import { ArticleRevisionsPostgres1795800000000 } from './postgres/1795800000000-article-revisions';
import { KeysAndAuthorsPostgres1795900000000 } from './postgres/1795900000000-keys-and-authors';
import { WebhooksPostgres1796000000000 } from './postgres/1796000000000-webhooks';
import { InitialSchemaSqlite1763769600000 } from './sqlite/1763769600000-initial-schema';
import { ArticleVersionsAndFilterIndexesSqlite1795400000000 } from './sqlite/1795400000000-article-versions-and-filter-indexes';
import { IdempotencyKeysSqlite1795500000000 } from './sqlite/1795500000000-idempotency-keys';
import { ArticleSearchSqlite1795600000000 } from './sqlite/1795600000000-article-search';
import { PublishingSqlite1795700000000 } from './sqlite/1795700000000-publishing';
import { ArticleRevisionsSqlite1795800000000 } from './sqlite/1795800000000-article-revisions';
import { KeysAndAuthorsSqlite1795900000000 } from './sqlite/1795900000000-keys-and-authors';
import { WebhooksSqlite1796000000000 } from './sqlite/1796000000000-webhooks';

/** Every migration of a database kind, oldest first. A new schema version adds a file and a line here. */
export const MIGRATIONS: Record<DatabaseKind, Function[]> = {
  postgres: [
    InitialSchemaPostgres1763769600000,
    ArticleVersionsAndFilterIndexesPostgres1795400000000,
    IdempotencyKeysPostgres1795500000000,
    ArticleSearchPostgres1795600000000,
    PublishingPostgres1795700000000,
    ArticleRevisionsPostgres1795800000000,
    KeysAndAuthorsPostgres1795900000000,
    WebhooksPostgres1796000000000,
  ],
  sqlite: [
    InitialSchemaSqlite1763769600000,
    ArticleVersionsAndFilterIndexesSqlite1795400000000,
    IdempotencyKeysSqlite1795500000000,
    ArticleSearchSqlite1795600000000,
    PublishingSqlite1795700000000,
    ArticleRevisionsSqlite1795800000000,
    KeysAndAuthorsSqlite1795900000000,
    WebhooksSqlite1796000000000,
  ],
};
