import type { WriteEvents } from '../../../../application';
import type { Article } from '../../../../domain';
import type { SqlConnection } from '../sql-connection';
import type { SqlDialect } from '../sql-dialect';
import type { WebhookStatements } from '../webhook-statements';
import { storedArticleJson } from './stored-article-json';

/**
 * An update, a delete or a restore as the outbox sees it: the article as the write found it (null:
 * a restore of a deleted article) and as it left it (null: a delete), at the write's time.
 */
export interface ReplacingWrite {
  readonly before: Article | null;
  readonly after: Article | null;
  readonly at: Date;
}

/**
 * The transactional outbox of the article writes (WriteEvents, api.md "Webhooks"): each write
 * calls it inside its own transaction, so its events commit or roll back with it. While nothing
 * is recorded (no subscription), a write runs as it did before webhooks existed: a create that is
 * one statement stays one statement, outside a transaction (see `recording`).
 */
export class OutboxRecording {
  constructor(
    private readonly writeEvents: WriteEvents,
    private readonly sql: WebhookStatements,
    private readonly dialect: SqlDialect,
  ) {}

  /** Whether writes record events now: a create then needs a transaction even when it is one statement. */
  recording(): boolean {
    return this.writeEvents.recording();
  }

  /** Inside a create's transaction, when recording: its events (created at the article's creation). */
  async recordCreate(connection: SqlConnection, created: Article): Promise<void> {
    if (!this.writeEvents.recording()) return;
    await this.storeEvents(connection, null, created, created.createdAt);
  }

  /**
   * Inside an update's, a delete's or a restore's transaction, when recording: the article's
   * scheduled `article.published` not due yet is cancelled (eventsOf emits it again, with the
   * article as this write left it, when the schedule stands), then the write's events stored.
   */
  async recordReplacement(connection: SqlConnection, { before, after, at }: ReplacingWrite): Promise<void> {
    if (!this.writeEvents.recording()) return;
    const id = (after ?? before)?.id;
    if (id === undefined) return;
    await connection.query(this.sql.cancelSchedule, [id, this.dialect.encodeTimestamp(at)]);
    await this.storeEvents(connection, before, after, at);
  }

  /** Each event as a pending delivery, due at its occurredAt, for every subscription of its type: a statement per event. */
  private async storeEvents(
    connection: SqlConnection,
    before: Article | null,
    after: Article | null,
    at: Date,
  ): Promise<void> {
    const { encodeTimestamp } = this.dialect;
    for (const event of this.writeEvents.eventsOf(before, after, at)) {
      await connection.query(this.sql.recordEvent, [
        event.id,
        event.type,
        event.article.id,
        storedArticleJson(event.article),
        encodeTimestamp(event.occurredAt),
        encodeTimestamp(at),
      ]);
    }
  }
}
