import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runScriptToExit, startService } from '../support/service-process';
import { createPostgresDatabase } from '../support/test-databases';

/**
 * The service removes expired Idempotency-Key records itself, without a cron outside it: a
 * record older than IDEMPOTENCY_KEY_RETENTION_HOURS is gone after the first purge (2 s after
 * the start, then every 60 s), a younger one stays. The test waits for the purge's log line.
 */
describe('the built service on PostgreSQL', () => {
  it('purges the expired Idempotency-Key records and keeps the live ones', async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-purge-'));
    const database = await createPostgresDatabase();
    const env = { DATABASE_URL: database.url, IDEMPOTENCY_KEY_RETENTION_HOURS: '1', SHUTDOWN_DRAIN_MS: '0' };
    const client = new Client({ connectionString: database.url });
    try {
      expect((await runScriptToExit('migrate.js', env, workDir)).code).toBe(0);
      await client.connect();
      await client.query(
        `INSERT INTO idempotency_keys (key, fingerprint, article_id, answer, stored_at) VALUES
           ('expired', 'f', 1, '{}', now() - interval '61 minutes'),
           ('live', 'f', 2, '{}', now() - interval '59 minutes')`,
      );
      let purged: (entry: Record<string, unknown>) => void = () => {};
      const purgeLogged = new Promise<Record<string, unknown>>((resolve) => {
        purged = resolve;
      });
      const service = await startService(env, workDir, {
        onJsonLine: (entry) => {
          if (entry.msg === 'expired Idempotency-Key records purged') purged(entry);
        },
      });
      try {
        await expect(purgeLogged).resolves.toMatchObject({ removed: 1 });
        const { rows } = await client.query('SELECT key FROM idempotency_keys ORDER BY key');
        expect(rows).toEqual([{ key: 'live' }]);
      } finally {
        service.process.kill('SIGTERM');
        await service.exited;
      }
    } finally {
      await client.end();
      await database.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});
