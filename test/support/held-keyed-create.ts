import { insertArticleValues } from '../../src/infrastructure/persistence/typeorm/article-repository/article-writes';
import { idempotencyStatements } from '../../src/infrastructure/persistence/typeorm/idempotency-statements';
import { POSTGRES_DIALECT } from '../../src/infrastructure/persistence/typeorm/sql-dialect';
import { aNewArticle } from './builders';
import type { LockHolder } from './postgres-sessions';

/**
 * Runs the very statement of a keyed create for `key` in the holder's session and leaves it
 * uncommitted, so a create under that key is "still in progress" until the holder releases.
 * Its values follow idempotency-statements.ts: the article's (insertArticleValues), then the key's.
 */
export function holdKeyedCreate(
  holder: LockHolder,
  claim: { key: string; fingerprint: string; expiredUpTo: Date },
  createdAt = new Date(),
): Promise<void> {
  const answer = JSON.stringify({ title: 'held', tags: [], categories: [], createdAt: 0, updatedAt: 0, version: 1 });
  const article = aNewArticle()
    .with({ title: 'held' })
    .withSlug(`held-${Math.floor(Math.random() * 1e12)}`)
    .at(createdAt)
    .build();
  return holder.hold(idempotencyStatements(POSTGRES_DIALECT).claimAndInsertArticle.text, [
    ...insertArticleValues(article, POSTGRES_DIALECT),
    claim.key,
    claim.fingerprint,
    claim.expiredUpTo,
    answer,
  ]);
}
