import Database from 'better-sqlite3';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { Client } from 'pg';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import { type AppConfig, type DatabaseConfig, loadConfig } from '../../src/infrastructure/config/config';
import { EMPTY_DATABASE_SQL } from './empty-database';
import { TestClock } from './test-clock';
import { createPostgresDatabase, createSqliteFile } from './test-databases';

export type StorageKind = 'memory' | 'sqlite' | 'postgres';

/** A storage for one test file: its configuration, how to empty it, how to remove it. */
interface TestStorage {
  database: DatabaseConfig;
  empty(): Promise<void>;
  remove(): Promise<void>;
}

async function openTestStorage(kind: StorageKind): Promise<TestStorage> {
  switch (kind) {
    case 'memory':
      return { database: { kind: 'memory' }, empty: async () => {}, remove: async () => {} };
    case 'sqlite': {
      const file = createSqliteFile();
      return {
        database: { kind: 'sqlite', path: file.path },
        empty: async () => {
          // A second connection, as another process would have; WAL lets it write beside the app's.
          const db = new Database(file.path);
          try {
            for (const statement of EMPTY_DATABASE_SQL.sqlite) db.exec(statement);
          } finally {
            db.close();
          }
        },
        remove: async () => file.remove(),
      };
    }
    case 'postgres': {
      const database = await createPostgresDatabase();
      return {
        database: { kind: 'postgres', url: database.url },
        empty: async () => {
          const client = new Client({ connectionString: database.url });
          await client.connect();
          try {
            for (const statement of EMPTY_DATABASE_SQL.postgres) await client.query(statement);
          } finally {
            await client.end();
          }
        },
        remove: database.drop,
      };
    }
  }
}

export interface HttpHarness {
  readonly app: Express;
  readonly container: Container;
  /** Back to an empty storage, and for the memory store a new one. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The real app, built by the composition root, on the given storage. */
export async function openHttpHarness(kind: StorageKind, config: Partial<AppConfig> = {}): Promise<HttpHarness> {
  const storage = await openTestStorage(kind);
  const fullConfig: AppConfig = { ...loadConfig({ LOG_LEVEL: 'silent' }), database: storage.database, ...config };
  // Every reading is a second later, so that an update's updatedAt always moves.
  const build = () => buildContainer(fullConfig, { clock: new TestClock('2026-05-01T10:00:00.000Z', 1000) });
  let container = await build();
  let app = createApp(container);
  return {
    get app() {
      return app;
    },
    get container() {
      return container;
    },
    async reset() {
      await closeContainer(container);
      await storage.empty();
      container = await build();
      app = createApp(container);
    },
    async close() {
      await closeContainer(container);
      await storage.remove();
    },
  };
}
