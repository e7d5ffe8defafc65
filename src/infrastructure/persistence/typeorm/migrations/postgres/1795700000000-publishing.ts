import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillPublishing } from '../backfill-publishing';
import { createIndex } from '../online-index';
import { type MigrationSession, withMigrationSession } from '../postgres-online';

/**
 * The advisory lock (key "slug" in ASCII) under which a slug is chosen while the previous
 * release still writes. The trigger takes it shared for an article inserted without a slug (its
 * slugs, `article-<id>[-n]` of its own new id, never clash with each other's); a backfill batch
 * takes it exclusive when one of its slugs has that form with an id above every id that existed
 * when the trigger was created (only those can be chosen by the trigger meanwhile), so that the
 * two never choose the same slug before the other has committed it.
 */
export const SLUG_LOCK_KEY = 0x736c7567;

/** The name of the trigger and of its function: what it is for, for an operator reading \d articles. */
export const PREVIOUS_RELEASE_TRIGGER = 'articles_from_previous_release';
const SLUG_NOT_NULL_CHECK = 'articles_slug_not_null';

/**
 * Instances of the previous release keep writing during a rolling deploy, and know only
 * `visible`: on their writes this fills what they leave out, the way the new service would.
 * An INSERT that is visible and has no published_at gets created_at; an UPDATE that changes
 * visible without published_at publishes at updated_at, or unpublishes; an INSERT without a slug
 * gets `article-<id>` (then -2, -3, … while another article has it), which the rule cannot do
 * better in SQL: the title's slug needs the service's transliteration. Its look-up uses the
 * slug index whatever the statistics say: planned while the table looked empty (a bulk insert
 * into a new database), a sequential scan per row made such an insert quadratic.
 *
 * A LATER RELEASE DROPS THIS TRIGGER AND ITS FUNCTION, together with the column `visible`, once
 * no instance of the previous release can run any more.
 */
const TRIGGER_FUNCTION = `
  CREATE OR REPLACE FUNCTION ${PREVIOUS_RELEASE_TRIGGER}() RETURNS trigger LANGUAGE plpgsql
  SET enable_seqscan = off AS $$
  DECLARE
    candidate text;
    n integer := 1;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      IF NEW.published_at IS NULL AND NEW.visible THEN
        NEW.published_at := NEW.created_at;
      END IF;
      IF NEW.slug IS NULL THEN
        PERFORM pg_advisory_xact_lock_shared(${SLUG_LOCK_KEY});
        candidate := 'article-' || NEW.id;
        WHILE EXISTS (SELECT 1 FROM articles WHERE slug = candidate) LOOP
          n := n + 1;
          candidate := 'article-' || NEW.id || '-' || n;
        END LOOP;
        NEW.slug := candidate;
      END IF;
    ELSIF NEW.visible IS DISTINCT FROM OLD.visible AND NEW.published_at IS NOT DISTINCT FROM OLD.published_at THEN
      NEW.published_at := CASE WHEN NEW.visible THEN NEW.updated_at END;
    END IF;
    RETURN NEW;
  END
  $$`;

/**
 * Publishing: `published_at` (null: a draft; later than now: scheduled; else published),
 * `featured`, and a unique `slug` per article ("C" collation: compared byte for byte), plus
 * `article_slugs`, the earlier slugs of an article (for redirects). `visible` stays, written by
 * the new service as `published_at <= now` at the write, for the previous release's instances.
 *
 * Online, on a live table (postgres-online.ts: a connection of its own, short transactions,
 * each step safe to run again after an interruption):
 *  1. the columns and the previous release's trigger, in one transaction whose lock_timeout
 *     keeps writers from queueing behind it (ADD COLUMN with a constant default writes nothing);
 *  2. the unique slug index, built CONCURRENTLY while every slug is null, so that the trigger's
 *     and the backfill's look-ups use it and a duplicate could not be written;
 *  3. the backfill, 1,000 articles a transaction, in id order: published_at = created_at where
 *     visible, slugs chosen in JavaScript with the domain's slugFromTitle and slugWithSuffix;
 *  4. the published_at index, CONCURRENTLY;
 *  5. slug NOT NULL without scanning the table under ACCESS EXCLUSIVE: a CHECK added NOT VALID,
 *     validated (which lets writes through), then SET NOT NULL, which the valid check proves,
 *     then the check dropped;
 *  6. article_slugs, and ANALYZE for the planner (the new columns had no statistics), unless
 *     there is no article (ADR 0054).
 */
export class PublishingPostgres1795700000000 implements MigrationInterface {
  name = 'PublishingPostgres1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await withMigrationSession(queryRunner, this.name, async (session) => {
      const idsBeforeTrigger = await session.step('columns and trigger', () => addColumnsAndTrigger(session));
      await session.step('slug index', () =>
        createIndex(session, { name: 'articles_slug_key', unique: true, on: 'articles (slug)' }),
      );
      await session.step('backfill', () => backfill(session, idsBeforeTrigger));
      await session.step('published_at index', () =>
        createIndex(session, { name: 'articles_published_at_idx', on: 'articles (published_at, id)' }),
      );
      await session.step('slug not null', () => makeSlugNotNull(session));
      await session.step('article_slugs', () => createArticleSlugs(session));
      await session.step('analyze', () =>
        session.transaction(analyzeUnlessEmpty, { lockTimeoutMs: 0, statementTimeoutMs: 0 }),
      );
    });
  }

  /** In the caller's transaction: dropping columns, indexes and a trigger is quick. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS article_slugs');
    await queryRunner.query(`DROP TRIGGER IF EXISTS ${PREVIOUS_RELEASE_TRIGGER} ON articles`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS ${PREVIOUS_RELEASE_TRIGGER}()`);
    await queryRunner.query('DROP INDEX IF EXISTS articles_published_at_idx, articles_slug_key');
    await queryRunner.query(
      `ALTER TABLE articles DROP CONSTRAINT IF EXISTS ${SLUG_NOT_NULL_CHECK}, DROP COLUMN IF EXISTS slug,
         DROP COLUMN IF EXISTS featured, DROP COLUMN IF EXISTS published_at`,
    );
  }
}

/**
 * Statistics of an empty table tell the planner it is empty: a session's kept plans (the
 * foreign-key checks of every link among them) then scan the whole table as it grows, until
 * autovacuum first analyzes it. Never analyzed, it is planned as at least ten pages (ADR 0054).
 */
async function analyzeUnlessEmpty(runner: QueryRunner): Promise<void> {
  const [{ empty }] = await runner.query('SELECT NOT EXISTS (SELECT 1 FROM articles) AS empty');
  if (!empty) await runner.query('ANALYZE articles');
}

/**
 * The highest id when the trigger was created (every article the trigger gives a slug has a
 * higher one); null when an earlier run created it, and that is unknown.
 */
async function addColumnsAndTrigger(session: MigrationSession): Promise<number | null> {
  // Replacing the function takes no lock on articles; the trigger calls the new text from then on.
  await session.runner.query(TRIGGER_FUNCTION);
  const [done] = await session.runner.query(
    `SELECT (SELECT count(*) FROM pg_attribute WHERE attrelid = 'articles'::regclass AND NOT attisdropped
                AND attname IN ('published_at', 'featured', 'slug')) = 3
        AND EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'articles'::regclass AND tgname = $1) AS done`,
    [PREVIOUS_RELEASE_TRIGGER],
  );
  if (done.done) return null;
  return session.transaction(
    async (runner) => {
      await runner.query(
        `ALTER TABLE articles ADD COLUMN IF NOT EXISTS published_at timestamptz(3),
           ADD COLUMN IF NOT EXISTS featured boolean NOT NULL DEFAULT false,
           ADD COLUMN IF NOT EXISTS slug varchar(185) COLLATE "C"`,
      );
      await runner.query(`DROP TRIGGER IF EXISTS ${PREVIOUS_RELEASE_TRIGGER} ON articles`);
      await runner.query(
        `CREATE TRIGGER ${PREVIOUS_RELEASE_TRIGGER} BEFORE INSERT OR UPDATE ON articles
           FOR EACH ROW EXECUTE FUNCTION ${PREVIOUS_RELEASE_TRIGGER}()`,
      );
      // Under the ACCESS EXCLUSIVE lock no insert is under way: later ones get higher ids.
      const [highest] = await runner.query('SELECT coalesce(max(id), 0) AS id FROM articles');
      return highest.id as number;
    },
    { blocksWritesOn: 'articles' },
  );
}

/** `article-<n>` or `article-<n>-<m>`: the slugs the trigger writes, n being the new article's id. */
const TRIGGER_SLUG = /^article-(\d+)(?:-\d+)?$/;

async function backfill(session: MigrationSession, idsBeforeTrigger: number | null): Promise<void> {
  const triggerMayChoose = (slug: string) => {
    const id = TRIGGER_SLUG.exec(slug)?.[1];
    return id !== undefined && (idsBeforeTrigger === null || Number(id) > idsBeforeTrigger);
  };
  const done = await backfillPublishing(
    session.runner,
    {
      param: (n) => `$${n}`,
      batch: (work) => session.transaction(work),
      lockSlugs: {
        statement: `SELECT pg_advisory_xact_lock(${SLUG_LOCK_KEY})`,
        needed: (slugs) => slugs.some(triggerMayChoose),
      },
      takenAmong: 'SELECT slug FROM articles WHERE slug IN (SELECT json_array_elements_text($1::json))',
      update: `UPDATE articles a SET slug = v.value ->> 1,
                 published_at = COALESCE(a.published_at, CASE WHEN a.visible THEN a.created_at END)
                 FROM json_array_elements($1::json) AS v(value)
                WHERE a.id = (v.value ->> 0)::integer AND a.slug IS NULL`,
    },
    async (progress) => {
      if (progress.batches % 20 === 0) session.log(`backfill: ${progress.articles} articles`);
    },
  );
  session.log(
    `backfill: ${done.articles} articles in ${done.batches} batches, the longest ${done.longestBatchMs.toFixed(0)} ms`,
  );
}

async function makeSlugNotNull(session: MigrationSession): Promise<void> {
  const [state] = await session.runner.query(
    `SELECT a.attnotnull AS "notNull", c.oid IS NOT NULL AS checked, coalesce(c.convalidated, false) AS validated
       FROM pg_attribute a LEFT JOIN pg_constraint c ON c.conrelid = a.attrelid AND c.conname = $1
      WHERE a.attrelid = 'articles'::regclass AND a.attname = 'slug'`,
    [SLUG_NOT_NULL_CHECK],
  );
  const dropCheck = `ALTER TABLE articles DROP CONSTRAINT IF EXISTS ${SLUG_NOT_NULL_CHECK}`;
  if (state.notNull) {
    if (state.checked) await session.transaction((runner) => runner.query(dropCheck), { blocksWritesOn: 'articles' });
    return;
  }
  if (!state.checked) {
    await session.transaction(
      (runner) =>
        runner.query(`ALTER TABLE articles ADD CONSTRAINT ${SLUG_NOT_NULL_CHECK} CHECK (slug IS NOT NULL) NOT VALID`),
      { blocksWritesOn: 'articles' },
    );
  }
  if (!state.validated) {
    // SHARE UPDATE EXCLUSIVE: writes go on while it scans, so it may wait and take its time.
    await session.transaction(
      (runner) => runner.query(`ALTER TABLE articles VALIDATE CONSTRAINT ${SLUG_NOT_NULL_CHECK}`),
      { lockTimeoutMs: 0, statementTimeoutMs: 0 },
    );
  }
  await session.transaction(
    async (runner) => {
      await runner.query('ALTER TABLE articles ALTER COLUMN slug SET NOT NULL');
      await runner.query(dropCheck);
    },
    { blocksWritesOn: 'articles' },
  );
}

async function createArticleSlugs(session: MigrationSession): Promise<void> {
  const [exists] = await session.runner.query("SELECT to_regclass('article_slugs') IS NOT NULL AS exists");
  if (exists.exists) return;
  // The foreign key takes a SHARE ROW EXCLUSIVE lock on articles for a moment.
  await session.transaction(
    async (runner) => {
      await runner.query(`
        CREATE TABLE article_slugs (
          slug varchar(185) COLLATE "C" PRIMARY KEY,
          article_id integer NOT NULL REFERENCES articles (id) ON DELETE CASCADE
        )`);
      await runner.query('CREATE INDEX article_slugs_article_id_idx ON article_slugs (article_id)');
    },
    { blocksWritesOn: 'articles' },
  );
}
