import { Client } from 'pg';

/** Runs `work` on a client of its own, connected to `url`, and ends the client whatever `work` does. */
export async function withPostgresClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One statement on a connection of its own, apart from the code under test: its rows. */
export function sql<Row>(url: string, text: string, values?: unknown[]): Promise<Row[]> {
  return withPostgresClient(url, async (client) => (await client.query(text, values)).rows as Row[]);
}
