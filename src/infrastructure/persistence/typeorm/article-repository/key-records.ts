import type { IdempotencyClaim, KeyedCreateOutcome, NewArticle } from '../../../../application';
import type { Article } from '../../../../domain';
import type { ArticleStatements } from '../article-statements';
import type { IdempotencyStatements } from '../idempotency-statements';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import { insertArticleValues } from './article-writes';
import type { OutboxRecording } from './outbox-recording';
import { articleOfStoredJson, storedArticleJson } from './stored-article-json';

/** What a keyed create works with: the article and key statements of one dialect, and where its events go. */
export interface KeyedCreateSql {
  readonly sql: ArticleStatements;
  readonly keyStatements: IdempotencyStatements;
  readonly dialect: SqlDialect;
  readonly outbox: OutboxRecording;
}

/** A keyed create's statement row: what happened, and the key's record when it was not created. */
export interface ClaimRow {
  outcome?: 'created' | 'stored' | 'in-progress';
  articleId: number;
  fingerprint: string;
  answer: string;
}

/** The values of the keyed create statements (idempotency-statements.ts): the article's, then the key's. */
export function keyedValues(
  { dialect }: KeyedCreateSql,
  article: NewArticle,
  claim: IdempotencyClaim,
  answer: Article,
): unknown[] {
  return [
    ...insertArticleValues(article, dialect),
    claim.key,
    claim.fingerprint,
    dialect.encodeTimestamp(claim.expiredUpTo),
    storedArticleJson(answer),
  ];
}

/** The key's live record as the outcome of a create under it; null when the key is free or expired. */
export async function findLiveKey(
  { keyStatements, dialect }: KeyedCreateSql,
  connection: SqlConnection,
  claim: IdempotencyClaim,
): Promise<KeyedCreateOutcome | null> {
  const [row] = await connection.query<ClaimRow>(keyStatements.findLiveKey, [
    claim.key,
    dialect.encodeTimestamp(claim.expiredUpTo),
  ]);
  return row ? storedOutcome(row) : null;
}

/** The article a key's record answers, rebuilt from its stored JSON and the id beside it. */
export function storedOutcome(row: ClaimRow): KeyedCreateOutcome {
  return { outcome: 'stored', fingerprint: row.fingerprint, article: articleOfStoredJson(row.answer, row.articleId) };
}
