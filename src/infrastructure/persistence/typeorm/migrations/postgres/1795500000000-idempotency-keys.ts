import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key records: the key, the fingerprint of its request, and the created article as
 * it was (`article_id` and `answer`, the article's JSON without its id), stored in the create's
 * own transaction. No foreign key: the stored answer outlives a later delete of the article.
 * "C" collation: keys compare byte for byte. `stored_at` is indexed for the purge of expired keys.
 */
export class IdempotencyKeysPostgres1795500000000 implements MigrationInterface {
  name = 'IdempotencyKeysPostgres1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        key varchar(255) COLLATE "C" PRIMARY KEY,
        fingerprint varchar(64) NOT NULL,
        article_id integer NOT NULL,
        answer text NOT NULL,
        stored_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX idempotency_keys_stored_at_idx ON idempotency_keys (stored_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_keys');
  }
}
