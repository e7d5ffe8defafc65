/**
 * Identifiers of what the container holds that is not a class of its own. Use cases and
 * controllers are their own identifiers.
 */
export const TOKENS = {
  Config: Symbol.for('AppConfig'),
  Logger: Symbol.for('Logger'),
  Clock: Symbol.for('Clock'),
  ArticleRepository: Symbol.for('ArticleRepository'),
  KeyRepository: Symbol.for('KeyRepository'),
  /** What the key refresh reads: the KeyRepository, or on PostgreSQL a session of its own. */
  KeyChangesReader: Symbol.for('KeyChangesReader'),
  TokenSecrets: Symbol.for('TokenSecrets'),
  StorageProbe: Symbol.for('StorageProbe'),
  StorageLifecycle: Symbol.for('StorageLifecycle'),
  /** prom-client registries of the storage adapter (replica lag, reads by node), served on /metrics. */
  StorageMetrics: Symbol.for('StorageMetrics'),
  WebhookRepository: Symbol.for('WebhookRepository'),
  /** RecordedWriteEvents: what the article storage records with each write, and its refresh. */
  WriteEvents: Symbol.for('WriteEvents'),
  /** The deliveries' metrics (webhook-metrics.ts). */
  WebhookMetrics: Symbol.for('WebhookMetrics'),
} as const;

/** What the composition root closes at shutdown. */
export interface StorageLifecycle {
  close(): Promise<void>;
}
