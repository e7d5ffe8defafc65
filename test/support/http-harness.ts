import type { Express } from 'express';
import type { Container } from 'inversify';
import request, { type Test } from 'supertest';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp, createOpenApiDocument } from '../../src/composition/create-app';
import { type AppConfig, type DatabaseConfig, loadConfig } from '../../src/infrastructure/config/config';
import { openSqliteDatabase } from '../../src/infrastructure/persistence/typeorm/sqlite-driver';
import { httpServerFor } from '../../src/interfaces/http/http-server';
import { EMPTY_DATABASE_SQL } from './empty-database';
import { type OpenApiDocument, OpenApiResponseCheck } from './openapi-response-check';
import { withPostgresClient } from './postgres-sql';
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
          const db = openSqliteDatabase(file.path);
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
        empty: () =>
          withPostgresClient(database.url, async (client) => {
            for (const statement of EMPTY_DATABASE_SQL.postgres) await client.query(statement);
          }),
        remove: database.drop,
      };
    }
  }
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

/** supertest's `request(app)`, whose every answer is checked against the app's OpenAPI document. */
export type CheckedRequests = Record<Method, (url: string) => Test>;

export interface HttpHarness {
  readonly app: Express;
  readonly container: Container;
  /** Requests to the app; a test fails when an answer departs from the OpenAPI document. */
  http(): CheckedRequests;
  /** Back to an empty storage, and for the memory store a new one. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface HttpHarnessOptions {
  /**
   * The app's clock, kept across resets, for tests that move time themselves. Default: a new
   * clock at each reset, every reading a second later, so that an update's updatedAt always moves.
   */
  clock?: TestClock;
}

/** The real app, built by the composition root, on the given storage. */
export async function openHttpHarness(
  kind: StorageKind,
  config: Partial<AppConfig> = {},
  options: HttpHarnessOptions = {},
): Promise<HttpHarness> {
  const storage = await openTestStorage(kind);
  const fullConfig: AppConfig = { ...loadConfig({ LOG_LEVEL: 'silent' }), database: storage.database, ...config };
  const build = () =>
    buildContainer(fullConfig, { clock: options.clock ?? new TestClock('2026-05-01T10:00:00.000Z', 1000) });
  let container = await build();
  let app = createApp(container);
  const check = new OpenApiResponseCheck(createOpenApiDocument(container) as OpenApiDocument);
  return {
    get app() {
      return app;
    },
    get container() {
      return container;
    },
    http: () => checkedRequests(app, check),
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

const METHODS: readonly Method[] = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

function checkedRequests(app: Express, check: OpenApiResponseCheck): CheckedRequests {
  // The server the service runs (serve.ts), not supertest's plain one.
  const agent = request(httpServerFor(app));
  const requests = {} as CheckedRequests;
  for (const method of METHODS) {
    // A custom supertest assertion: it runs on every answer, before those the test adds itself.
    requests[method] = (url) =>
      agent[method](url).expect((response) => {
        const problems = check.problemsOf(method, url, response);
        if (problems.length > 0)
          throw new Error(`The answer departs from the OpenAPI document:\n${problems.join('\n')}`);
      });
  }
  return requests;
}
