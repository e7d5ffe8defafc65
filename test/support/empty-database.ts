/** Statements that empty every table and restart ids, so a test starts from a new database's state. */
const TABLES = [
  // Before the subscriptions they reference.
  'webhook_deliveries',
  'webhook_subscriptions',
  'article_tags',
  'article_categories',
  'article_slugs',
  'tags',
  'categories',
  'articles',
  'idempotency_keys',
  'article_revisions',
  // After the articles that reference them.
  'api_keys',
  'authors',
];

export const EMPTY_DATABASE_SQL = {
  postgres: [`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`],
  sqlite: [...TABLES.map((table) => `DELETE FROM ${table}`), 'DELETE FROM sqlite_sequence'],
} as const;
