import type { SqlDialect } from './sql-dialect';
import type { SqlStatement, StatementParts } from './sql-statement';

/** A delivery's columns as the deliveries log shows it (DeliveryRow); instants in epoch ms. */
const DELIVERY_COLUMNS = (d: SqlDialect) => `event_id AS "eventId", type, attempts, state,
  last_status AS "lastStatus", last_error AS "lastError", ${d.epochMs('next_attempt_at')} AS "nextAttemptAt",
  ${d.epochMs('delivered_at')} AS "deliveredAt", ${d.epochMs('created_at')} AS "createdAt"`;

/**
 * The statements of webhooks (tables webhook_subscriptions and webhook_deliveries, see
 * webhooks-tables.ts): the outbox an article write fills in its own transaction, and the
 * subscriptions and deliveries the WebhookRepository reads, claims and settles. A subscription's
 * `events` is `,type,type,`: a type is taken when `,type,` is in it.
 */
export function webhookStatements({ d, statement }: Pick<StatementParts, 'd' | 'statement'>) {
  const p = d.param;
  const ms = d.epochMs;
  /** Pending deliveries of subscription $1 due at $2 whose claim, if any, ended before $2. */
  const dueOf = `subscription_id = ${p(1)} AND state = 'pending' AND next_attempt_at <= ${p(2)}
      AND (claimed_until IS NULL OR claimed_until < ${p(2)})`;
  return {
    /**
     * In an article write's transaction: article $1's scheduled `article.published` not attempted
     * yet and due after $2 (the write's time) is removed: the write cancels or moves a schedule,
     * and eventsOf emits it again if it stands. One due already is the event as it happened.
     */
    cancelSchedule: statement(
      'cancel_schedule',
      `DELETE FROM webhook_deliveries
        WHERE article_id = ${p(1)} AND state = 'pending' AND type = 'article.published'
          AND attempts = 0 AND next_attempt_at > ${p(2)}`,
    ),
    /**
     * In an article write's transaction: event $1 of type $2 about article $3 (its JSON $4), at
     * $5, as a pending delivery due at $5 for every subscription that takes type $2; created at
     * $6 (the write's time). One statement whatever the number of subscriptions.
     */
    recordEvent: statement(
      'record_event',
      `INSERT INTO webhook_deliveries (subscription_id, event_id, type, article_id, article, occurred_at,
                                       state, attempts, next_attempt_at, created_at)
       SELECT s.id, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 'pending', 0, ${p(5)}, ${p(6)}
         FROM webhook_subscriptions s
        WHERE s.events LIKE ('%,' || CAST(${p(2)} AS text) || ',%')`,
    ),

    /** Subscription $1: url $2, events $3 (`,type,` each), description $4, secret $5, created at $6. */
    insertSubscription: statement(
      'insert_subscription',
      `INSERT INTO webhook_subscriptions (id, url, events, description, secret, created_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
    ),
    /** Every subscription, oldest first (one millisecond's in id order, so that the order is stable). */
    listSubscriptions: statement(
      'list_subscriptions',
      `SELECT id, url, events, description, secret, ${ms('created_at')} AS "createdAt"
         FROM webhook_subscriptions ORDER BY created_at, id`,
    ),
    findSubscription: statement(
      'find_subscription',
      `SELECT id, url, events, description, secret, ${ms('created_at')} AS "createdAt"
         FROM webhook_subscriptions WHERE id = ${p(1)}`,
    ),
    /** Subscription $1 removed, its deliveries with it (ON DELETE CASCADE); a row when it existed. */
    deleteSubscription: statement(
      'delete_subscription',
      `DELETE FROM webhook_subscriptions WHERE id = ${p(1)} RETURNING id`,
    ),
    anySubscription: statement('any_subscription', 'SELECT 1 AS found FROM webhook_subscriptions LIMIT 1'),

    /** Subscription $1's deliveries, newest created first (then event id descending), at most $2. */
    listDeliveries: statement(
      'list_deliveries',
      `SELECT ${DELIVERY_COLUMNS(d)} FROM webhook_deliveries WHERE subscription_id = ${p(1)}
        ORDER BY created_at DESC, event_id DESC LIMIT ${p(2)}`,
    ),
    /** As listDeliveries, after the position ($3 created_at, $4 event id): the next page. */
    listDeliveriesBefore: statement(
      'list_deliveries_before',
      `SELECT ${DELIVERY_COLUMNS(d)} FROM webhook_deliveries
        WHERE subscription_id = ${p(1)} AND (created_at, event_id) < (${p(3)}, ${p(4)})
        ORDER BY created_at DESC, event_id DESC LIMIT ${p(2)}`,
    ),

    /** Subscriptions with a pending delivery due at $1 and not claimed (or its claim ended), at most $2. */
    subscriptionsWithDueDeliveries: statement(
      'subscriptions_with_due_deliveries',
      `SELECT DISTINCT subscription_id AS "subscriptionId" FROM webhook_deliveries
        WHERE state = 'pending' AND next_attempt_at <= ${p(1)}
          AND (claimed_until IS NULL OR claimed_until < ${p(1)})
        LIMIT ${p(2)}`,
    ),
    /**
     * Claims until $3 at most $4 of subscription $1's deliveries due at $2, oldest due first, and
     * answers them. PostgreSQL skips the rows a concurrent claim has locked (and re-checks a row
     * another claim changed since this statement began: claimed, it is no longer due), so each
     * delivery goes to one claim. SQLite's claims run one at a time.
     */
    claimDue: statement(
      'claim_due',
      `UPDATE webhook_deliveries SET claimed_until = ${p(3)}
        WHERE (subscription_id, event_id) IN (
          SELECT subscription_id, event_id FROM webhook_deliveries WHERE ${dueOf}
           ORDER BY next_attempt_at, event_id LIMIT ${p(4)}${d.skipsLockedRows ? ' FOR UPDATE SKIP LOCKED' : ''}
        )
        RETURNING event_id AS "eventId", type, article_id AS "articleId", article,
                  ${ms('occurred_at')} AS "occurredAt", attempts, ${ms('next_attempt_at')} AS "nextAttemptAt"`,
    ),
    /**
     * The outcome of an attempt at delivery ($1 subscription, $2 event) claimed until $3: one more
     * attempt, state $4, last status $5 and error $6, next attempt $7 (null unless a retry),
     * delivered at $8; the claim ends. A row only when the claim was still this one.
     */
    recordOutcome: statement(
      'record_outcome',
      `UPDATE webhook_deliveries
          SET attempts = attempts + 1, state = ${p(4)}, last_status = ${p(5)}, last_error = ${p(6)},
              next_attempt_at = ${p(7)}, delivered_at = ${p(8)}, claimed_until = NULL
        WHERE subscription_id = ${p(1)} AND event_id = ${p(2)} AND claimed_until = ${p(3)}
        RETURNING 1 AS recorded`,
    ),
    /** How many deliveries are pending, and when the oldest of them due at $1 was due. */
    pendingSummary: statement(
      'pending_summary',
      `SELECT CAST(count(*) AS integer) AS pending,
              ${ms(`MIN(CASE WHEN next_attempt_at <= ${p(1)} THEN next_attempt_at END)`)} AS "oldestDueAt"
         FROM webhook_deliveries WHERE state = 'pending'`,
    ),
  };
}

export type WebhookStatements = ReturnType<typeof webhookStatements>;

/** The webhook statements of a dialect, named `webhook_…` wherever they run (PostgreSQL prepares them by name). */
export function webhookStatementsOf(d: SqlDialect): WebhookStatements {
  const statement = (name: string, text: string): SqlStatement => ({ name: `webhook_${name}`, text });
  return webhookStatements({ d, statement });
}
