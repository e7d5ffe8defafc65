import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createWebhooksTables, dropWebhooksTables } from '../webhooks-tables';

/**
 * Webhook subscriptions and deliveries (webhooks-tables.ts). Two new, empty tables and their
 * indexes, so the statements run plainly in the migration's transaction: no lock on a table in
 * use, nothing to do online.
 */
export class WebhooksPostgres1796000000000 implements MigrationInterface {
  name = 'WebhooksPostgres1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createWebhooksTables(queryRunner, { timestamp: 'timestamptz(3)', collate: 'COLLATE "C"' });
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropWebhooksTables(queryRunner);
  }
}
