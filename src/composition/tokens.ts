/**
 * Identifiers of what the container holds that is not a class of its own. Use cases and
 * controllers are their own identifiers.
 */
export const TOKENS = {
  Config: Symbol.for('AppConfig'),
  Logger: Symbol.for('Logger'),
  Clock: Symbol.for('Clock'),
  ArticleRepository: Symbol.for('ArticleRepository'),
  StorageProbe: Symbol.for('StorageProbe'),
  StorageLifecycle: Symbol.for('StorageLifecycle'),
} as const;

/** What the composition root closes at shutdown. */
export interface StorageLifecycle {
  close(): Promise<void>;
}
