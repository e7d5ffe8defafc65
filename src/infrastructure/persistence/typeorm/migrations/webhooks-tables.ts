import type { QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions and their deliveries: the transactional outbox the article writes fill in
 * their own transaction. The same on both dialects but for the column types: `timestamp` holds
 * milliseconds, `collate` makes ids compare byte for byte (the deliveries log pages by event id)
 * where the default collation does not (PostgreSQL). New, empty tables: nothing waits on the
 * articles. The event types are written out as they are at this version of the schema.
 *
 * `events` is stored as `,article.published,article.updated,` (a comma before and after each),
 * so that a write's one INSERT … SELECT finds the subscriptions of a type with LIKE '%,type,%'.
 * `article` is the article's JSON as revisions store it (stored-article-json.ts): what the event
 * sends, fixed at the write.
 */
export async function createWebhooksTables(
  queryRunner: QueryRunner,
  types: { timestamp: string; collate: string },
): Promise<void> {
  const { timestamp, collate } = types;
  await queryRunner.query(`
    CREATE TABLE webhook_subscriptions (
      id text ${collate} PRIMARY KEY NOT NULL,
      url text NOT NULL,
      events text NOT NULL,
      description text,
      secret text NOT NULL,
      created_at ${timestamp} NOT NULL
    )`);
  await queryRunner.query(`
    CREATE TABLE webhook_deliveries (
      subscription_id text ${collate} NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
      event_id text ${collate} NOT NULL,
      type text NOT NULL CONSTRAINT webhook_deliveries_type_check
        CHECK (type IN ('article.published', 'article.updated', 'article.unpublished', 'article.deleted')),
      article_id integer NOT NULL,
      article text NOT NULL,
      occurred_at ${timestamp} NOT NULL,
      state text NOT NULL CONSTRAINT webhook_deliveries_state_check CHECK (state IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at ${timestamp},
      last_status integer,
      last_error text,
      delivered_at ${timestamp},
      claimed_until ${timestamp},
      created_at ${timestamp} NOT NULL,
      PRIMARY KEY (subscription_id, event_id)
    )`);
  // Only pending deliveries are ever looked for by time or by article: delivered and failed ones
  // (nearly all rows, in time) stay out of these two indexes.
  await queryRunner.query(
    `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`,
  );
  // A write to an article cancels its scheduled article.published (WriteEvents).
  await queryRunner.query(
    `CREATE INDEX webhook_deliveries_article_idx ON webhook_deliveries (article_id) WHERE state = 'pending'`,
  );
  // A subscription's deliveries log, newest first, paged by (created_at, event_id).
  await queryRunner.query(
    'CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (subscription_id, created_at, event_id)',
  );
}

/** Both tables, deliveries first (they reference the subscriptions). */
export async function dropWebhooksTables(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP TABLE webhook_deliveries');
  await queryRunner.query('DROP TABLE webhook_subscriptions');
}
