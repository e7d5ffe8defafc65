import type { IdempotencyClaim, KeyedCreateOutcome, NewArticle } from '../../../../application';
import { claimThenCreate } from './claim-then-create';
import { createThenClaim } from './create-then-claim';
import { createWithFreeSlug } from './free-slug';
import type { KeyedCreateSql } from './key-records';
import { type SqlSessions, WRITE } from './sql-sessions';

/**
 * Creates under an Idempotency-Key, and the purge of expired keys. Where the database can claim
 * a key and insert in one statement, the claim comes first (claim-then-create.ts); else the
 * create runs under the write lock and claims last (create-then-claim.ts). Either is atomic, so
 * a slug another create took first is tried again with the next free one (free-slug.ts).
 */
export class KeyedCreates {
  constructor(
    private readonly sessions: SqlSessions,
    private readonly context: KeyedCreateSql,
  ) {}

  createWithKey(article: NewArticle, claim: IdempotencyClaim): Promise<KeyedCreateOutcome> {
    return this.sessions.inSession(WRITE, async (connection) => {
      const author = article.author;
      return createWithFreeSlug(connection, this.context.sql, article, (attempt) =>
        this.context.dialect.claimsKeyInOneStatement
          ? claimThenCreate(this.context, connection, attempt, claim, author)
          : createThenClaim(this.context, connection, attempt, claim, author),
      );
    });
  }

  async deleteExpiredKeys(upTo: Date, limit: number): Promise<number> {
    const { keyStatements, dialect } = this.context;
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query(keyStatements.deleteExpired, [dialect.encodeTimestamp(upTo), limit]),
    );
    return rows.length;
  }
}
