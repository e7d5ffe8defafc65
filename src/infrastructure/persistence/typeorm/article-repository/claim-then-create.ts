import type { IdempotencyClaim, KeyedCreateOutcome, NewArticle } from '../../../../application';
import type { Author, Term, TermKind } from '../../../../domain';
import type { SqlConnection } from '../sql-connection';
import { createdArticle, hasReferences, NO_TERMS, termIdsJson } from './article-rows';
import { type ClaimRow, findLiveKey, type KeyedCreateSql, keyedValues, storedOutcome } from './key-records';
import { storedArticleJson } from './stored-article-json';
import { findKnownTerms, resolveTerms } from './term-resolution';
import { inTransaction, runInOrder } from './transaction';

/**
 * A keyed create where one statement claims the key and inserts the article (PostgreSQL: the
 * key's advisory lock tells a create in progress). When every term referenced exists (one
 * find_terms first; terms are never deleted or changed), that statement also links them and
 * stores the whole answer. Else it opens the transaction that resolves them (creating new
 * names), links them and stores the answer; so does every create while webhook events are
 * recorded, which go in that transaction. A key already answered writes nothing.
 */
export async function claimThenCreate(
  context: KeyedCreateSql,
  connection: SqlConnection,
  article: NewArticle,
  claim: IdempotencyClaim,
  author: Author | null,
): Promise<KeyedCreateOutcome> {
  const { sql, keyStatements } = context;
  const references = { tag: article.tags, category: article.categories };
  const claimAndInsert = async (terms: Record<TermKind, Term[]>) => {
    // The answer stored with the key: the article without its id (storedArticleJson drops it).
    const values = keyedValues(context, article, claim, createdArticle(0, article, terms, author));
    const [row] =
      terms.tag.length + terms.category.length === 0
        ? await connection.query<ClaimRow>(keyStatements.claimAndInsertArticle, values)
        : await connection.query<ClaimRow>(keyStatements.claimAndInsertLinkedArticle, [
            ...values,
            termIdsJson(terms.tag),
            termIdsJson(terms.category),
          ]);
    return row;
  };
  // Events recorded go in the create's transaction: no create of one statement alone then.
  let known: Record<TermKind, Term[]> | null = null;
  if (!context.outbox.recording()) {
    known = hasReferences(article) ? await findKnownTerms(connection, sql, references) : NO_TERMS;
  }
  if (known) {
    const row = await claimAndInsert(known);
    if (row?.outcome === 'created')
      return { outcome: 'created', article: createdArticle(row.articleId, article, known, author) };
    return notClaimed(context, connection, claim, row);
  }
  return inTransaction(connection, sql, async () => {
    // Until the terms are resolved, the answer stored is the article without them, unlinked.
    const row = await claimAndInsert(NO_TERMS);
    // Nothing was written: the empty transaction commits.
    if (row?.outcome !== 'created') return notClaimed(context, connection, claim, row);
    let created = createdArticle(row.articleId, article, NO_TERMS, author);
    if (hasReferences(article)) {
      const terms = await resolveTerms(connection, sql, references);
      const links = [row.articleId, termIdsJson(terms.tag), termIdsJson(terms.category)];
      await runInOrder(connection, sql.insertLinks, links);
      created = createdArticle(row.articleId, article, terms, author);
      await connection.query(keyStatements.storeAnswer, [claim.key, storedArticleJson(created)]);
    }
    await context.outbox.recordCreate(connection, created);
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
