import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ATTR_DB_QUERY_SUMMARY, ATTR_DB_SYSTEM_NAME } from '@opentelemetry/semantic-conventions';
import type { SqlConnection } from './sql-connection';
import type { SqlDialect } from './sql-dialect';
import type { SqlStatement } from './sql-statement';

/**
 * A span per statement, named after the statement (article-statements.ts), a child of the
 * use case's span. The name is the whole description: neither the SQL text nor any value is
 * recorded, so no article text or token can reach a trace. Only wrapped when tracing is on.
 */
export class TracedSqlConnection implements SqlConnection {
  constructor(
    private readonly connection: SqlConnection,
    private readonly tracer: Tracer,
    private readonly dialect: SqlDialect,
  ) {}

  query<Row>(statement: SqlStatement, values: readonly unknown[]): Promise<Row[]> {
    const attributes = { [ATTR_DB_SYSTEM_NAME]: this.dialect.traceSystemName, [ATTR_DB_QUERY_SUMMARY]: statement.name };
    return this.tracer.startActiveSpan(statement.name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await this.connection.query<Row>(statement, values);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  discard(): void {
    this.connection.discard();
  }
}
