import { Client } from 'pg';
import type { StoredArticle } from './check-creates';

/**
 * Every article the primary holds, of any visibility: the final read a history is checked
 * against. Straight from PostgreSQL (no service, pooler or replica in between), so that what it
 * shows is what was committed, not what some cache or lagging node says.
 */
export async function readPrimaryArticles(connectionString: string): Promise<StoredArticle[]> {
  const client = new Client({ connectionString, connectionTimeoutMillis: 2_000 });
  // A server that goes away while we hold the client: the query fails, and the caller retries.
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<StoredArticle>('SELECT id, title FROM articles ORDER BY id');
    return rows;
  } finally {
    await client.end().catch(() => {});
  }
}
