import type { DataSource } from 'typeorm';
import type { ClaimedDelivery, DeliveryOutcome, DeliveryPosition, WebhookRepository } from '../../../../application';
import type { WebhookDelivery, WebhookSubscription } from '../../../../domain';
import { type SqlSessions, WRITE } from '../article-repository/sql-sessions';
import { type PrimaryOnlyOptions, primaryOnlySessions } from '../primary-only-sessions';
import { type SqlDialect, sqlDialectOf } from '../sql-dialect';
import { type WebhookStatements, webhookStatementsOf } from '../webhook-statements';
import {
  type ClaimedRow,
  claimsOf,
  type DeliveryRow,
  deliveryOf,
  eventsColumn,
  type SubscriptionRow,
  subscriptionOf,
} from './webhook-rows';

/** Reaching the primary (primary-only-sessions.ts): untraced, as the deliverer polls it. */
export type TypeOrmWebhookRepositoryOptions = PrimaryOnlyOptions;

/**
 * Webhook subscriptions and their deliveries (the outbox the article writes fill, see
 * outbox-recording.ts) on PostgreSQL or SQLite, as the WebhookRepository port. Everything runs on
 * the primary: claims must be arbitrated where the deliveries are written, and a replica's lag
 * would show a delivery as due after it was delivered. On SQLite it shares the article
 * repository's one-at-a-time sessions of the data source (sqliteSessionsOf). Each call is one
 * statement: atomic without a transaction.
 */
export class TypeOrmWebhookRepository implements WebhookRepository {
  private readonly sessions: SqlSessions;
  private readonly dialect: SqlDialect;
  private readonly sql: WebhookStatements;

  constructor(dataSource: DataSource, options: TypeOrmWebhookRepositoryOptions = {}) {
    this.dialect = sqlDialectOf(dataSource.options);
    this.sql = webhookStatementsOf(this.dialect);
    this.sessions = primaryOnlySessions(dataSource, this.dialect, options);
  }

  async createSubscription(subscription: WebhookSubscription): Promise<void> {
    await this.sessions.inSession(WRITE, (connection) =>
      connection.query(this.sql.insertSubscription, [
        subscription.id,
        subscription.url,
        eventsColumn(subscription.events),
        subscription.description,
        subscription.secret,
        this.dialect.encodeTimestamp(subscription.createdAt),
      ]),
    );
  }

  async listSubscriptions(): Promise<WebhookSubscription[]> {
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query<SubscriptionRow>(this.sql.listSubscriptions, []),
    );
    return rows.map(subscriptionOf);
  }

  async findSubscription(id: string): Promise<WebhookSubscription | null> {
    const [row] = await this.sessions.inSession(WRITE, (connection) =>
      connection.query<SubscriptionRow>(this.sql.findSubscription, [id]),
    );
    return row ? subscriptionOf(row) : null;
  }

  async deleteSubscription(id: string): Promise<boolean> {
    // Its deliveries go with it: ON DELETE CASCADE (SQLite's foreign keys are on, TypeORM's driver sets them).
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query(this.sql.deleteSubscription, [id]),
    );
    return rows.length > 0;
  }

  async anySubscription(): Promise<boolean> {
    const rows = await this.sessions.inSession(WRITE, (connection) => connection.query(this.sql.anySubscription, []));
    return rows.length > 0;
  }

  async listDeliveries(subscriptionId: string, limit: number, before?: DeliveryPosition): Promise<WebhookDelivery[]> {
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      before
        ? connection.query<DeliveryRow>(this.sql.listDeliveriesBefore, [
            subscriptionId,
            limit,
            this.dialect.encodeTimestamp(before.createdAt),
            before.eventId,
          ])
        : connection.query<DeliveryRow>(this.sql.listDeliveries, [subscriptionId, limit]),
    );
    return rows.map(deliveryOf);
  }

  async subscriptionsWithDueDeliveries(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query<{ subscriptionId: string }>(this.sql.subscriptionsWithDueDeliveries, [
        this.dialect.encodeTimestamp(now),
        limit,
      ]),
    );
    return rows.map((row) => row.subscriptionId);
  }

  async claimDue(subscriptionId: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const { encodeTimestamp } = this.dialect;
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query<ClaimedRow>(this.sql.claimDue, [
        subscriptionId,
        encodeTimestamp(now),
        encodeTimestamp(leaseUntil),
        limit,
      ]),
    );
    return claimsOf(rows, subscriptionId, leaseUntil);
  }

  async recordOutcome(claim: ClaimedDelivery, outcome: DeliveryOutcome): Promise<boolean> {
    const { encodeTimestamp } = this.dialect;
    const rows = await this.sessions.inSession(WRITE, (connection) =>
      connection.query(this.sql.recordOutcome, [
        claim.subscriptionId,
        claim.event.id,
        encodeTimestamp(claim.lease),
        outcome.kind === 'retry' ? 'pending' : outcome.kind,
        outcome.status,
        outcome.kind === 'delivered' ? null : outcome.error,
        outcome.kind === 'retry' ? encodeTimestamp(outcome.nextAttemptAt) : null,
        outcome.kind === 'delivered' ? encodeTimestamp(outcome.at) : null,
      ]),
    );
    return rows.length === 1;
  }

  async pendingSummary(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }> {
    const [row] = await this.sessions.inSession(WRITE, (connection) =>
      connection.query<{ pending: number; oldestDueAt: number | null }>(this.sql.pendingSummary, [
        this.dialect.encodeTimestamp(now),
      ]),
    );
    const oldest = row?.oldestDueAt ?? null;
    return { pending: Number(row?.pending ?? 0), oldestDueAt: oldest === null ? null : new Date(Number(oldest)) };
  }
}
