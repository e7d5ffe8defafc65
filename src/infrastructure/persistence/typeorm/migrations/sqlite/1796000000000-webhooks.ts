import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createWebhooksTables, dropWebhooksTables } from '../webhooks-tables';

/**
 * Webhook subscriptions and deliveries (webhooks-tables.ts). SQLite compares text by its bytes
 * (BINARY) already. ON DELETE CASCADE works because TypeORM's better-sqlite3 driver turns
 * `foreign_keys` on for the connection.
 */
export class WebhooksSqlite1796000000000 implements MigrationInterface {
  name = 'WebhooksSqlite1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createWebhooksTables(queryRunner, { timestamp: 'datetime', collate: '' });
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropWebhooksTables(queryRunner);
  }
}
