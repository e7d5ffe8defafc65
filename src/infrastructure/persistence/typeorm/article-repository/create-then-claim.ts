import type { IdempotencyClaim, KeyedCreateOutcome, NewArticle } from '../../../../application';
import type { Author } from '../../../../domain';
import type { SqlConnection } from '../sql-connection';
import { createdArticle, hasReferences, NO_TERMS, termIdsJson } from './article-rows';
import { insertArticle, insertArticleValues } from './article-writes';
import { findLiveKey, type KeyedCreateSql, keyedValues } from './key-records';
import { resolveTerms } from './term-resolution';
import { inTransaction, runInOrder } from './transaction';

/** The claim of a key found a live record, inside a transaction that must roll back. */
class KeyClaimedElsewhere extends Error {}

/**
 * A keyed create inside a transaction that holds the database's write lock from its BEGIN
 * (SQLite's BEGIN IMMEDIATE), so no other create runs beside it. A live record answers at
 * once; else the article is created, the key claimed (the primary key arbitrates) and the
 * create's events recorded before the commit.
 */
export async function createThenClaim(
  context: KeyedCreateSql,
  connection: SqlConnection,
  article: NewArticle,
  claim: IdempotencyClaim,
  author: Author | null,
): Promise<KeyedCreateOutcome> {
  const { sql, keyStatements, dialect } = context;
  try {
    return await inTransaction(connection, sql, async () => {
      const stored = await findLiveKey(context, connection, claim);
      if (stored) return stored;
      const terms = hasReferences(article)
        ? await resolveTerms(connection, sql, { tag: article.tags, category: article.categories })
        : NO_TERMS;
      const id = await insertArticle(connection, sql, insertArticleValues(article, dialect));
      if (hasReferences(article)) {
        await runInOrder(connection, sql.insertLinks, [id, termIdsJson(terms.tag), termIdsJson(terms.category)]);
      }
      const created = createdArticle(id, article, terms, author);
      const [claimed] = await connection.query(keyStatements.claimKey, [
        ...keyedValues(context, article, claim, created),
        id,
      ]);
      if (!claimed) throw new KeyClaimedElsewhere();
      await context.outbox.recordCreate(connection, created);
      return { outcome: 'created', article: created };
    });
  } catch (error) {
    // Rolled back: the article goes with the claim that failed.
    if (error instanceof KeyClaimedElsewhere) return { outcome: 'in-progress' };
    throw error;
  }
}
