import type { IdempotencyClaim, KeyedCreateOutcome, NewArticle } from '../../../../application';
import type { SqlConnection } from '../sql-connection';
import { createdArticle, hasReferences, NO_TERMS, termIdsJson } from './article-rows';
import { answerJson, type ClaimRow, findLiveKey, type KeyedCreateSql, keyedValues, storedOutcome } from './key-records';
import { resolveTerms } from './term-resolution';
import { inTransaction, runInOrder } from './transaction';

/**
 * A keyed create where one statement claims the key and inserts the article (PostgreSQL: the
 * key's advisory lock tells a create in progress). With references, that statement opens the
 * transaction that resolves them, links them and stores the answer. A key already answered
 * writes nothing.
 */
export async function claimThenCreate(
  context: KeyedCreateSql,
  connection: SqlConnection,
  article: NewArticle,
  claim: IdempotencyClaim,
): Promise<KeyedCreateOutcome> {
  const { sql, keyStatements } = context;
  // Until the terms are resolved, the answer stored is the article without them.
  const values = keyedValues(context, article, claim, createdArticle(0, article, NO_TERMS));
  const claimAndInsert = async () => {
    const [row] = await connection.query<ClaimRow>(keyStatements.claimAndInsertArticle, values);
    return row;
  };
  if (!hasReferences(article)) {
    const row = await claimAndInsert();
    if (row?.outcome === 'created')
      return { outcome: 'created', article: createdArticle(row.articleId, article, NO_TERMS) };
    return notClaimed(context, connection, claim, row);
  }
  return inTransaction(connection, sql, async () => {
    const row = await claimAndInsert();
    // Nothing was written: the empty transaction commits.
    if (row?.outcome !== 'created') return notClaimed(context, connection, claim, row);
    const terms = await resolveTerms(connection, sql, { tag: article.tags, category: article.categories });
    await runInOrder(connection, sql.insertLinks, [row.articleId, termIdsJson(terms.tag), termIdsJson(terms.category)]);
    const created = createdArticle(row.articleId, article, terms);
    await connection.query(keyStatements.storeAnswer, [claim.key, answerJson(created)]);
    return { outcome: 'created', article: created };
  });
}

/** The claim created nothing: the key's record, or, in a race the statement lost, the record read again. */
async function notClaimed(
  context: KeyedCreateSql,
  connection: SqlConnection,
  claim: IdempotencyClaim,
  row: ClaimRow | undefined,
): Promise<KeyedCreateOutcome> {
  if (row?.outcome === 'stored') return storedOutcome(row);
  if (row?.outcome === 'in-progress') return { outcome: 'in-progress' };
  return (await findLiveKey(context, connection, claim)) ?? { outcome: 'in-progress' };
}
