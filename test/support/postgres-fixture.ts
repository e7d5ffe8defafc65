import { createPostgresDatabase } from './test-databases';

/** A new test database, and one teardown for it and for what the tests open on it. */
export interface PostgresFixture {
  /** The URL of the fixture's own database. */
  readonly url: string;
  /**
   * Has `close` end `opened` at teardown, and answers `opened`. What was opened last is closed
   * first (a service before the sessions it was started beside), and all before the drop.
   */
  closeAtTeardown<T>(opened: T, close: (opened: T) => unknown): T;
  /** Closes what was registered, then drops the database. */
  teardown(): Promise<void>;
}

/**
 * Creates a test database for a test file (or a test) to open what it needs on. Register each
 * thing as it opens, so that a set-up that fails halfway still closes what it got to.
 */
export async function createPostgresFixture(): Promise<PostgresFixture> {
  const database = await createPostgresDatabase();
  const closers: Array<() => unknown> = [];
  return {
    url: database.url,
    closeAtTeardown: (opened, close) => {
      closers.push(() => close(opened));
      return opened;
    },
    teardown: async () => {
      for (const close of closers.splice(0).reverse()) await close();
      await database.drop();
    },
  };
}
