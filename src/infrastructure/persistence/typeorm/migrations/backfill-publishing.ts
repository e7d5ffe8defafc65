import type { QueryRunner } from 'typeorm';
import { slugFromTitle, slugWithSuffix } from '../../../../domain/slug';

/** Articles per backfill batch: each batch is one short transaction on PostgreSQL. */
export const PUBLISHING_BATCH = 1_000;
/** Slugs read per statement when the backfill learns which are taken already. */
const TAKEN_CHUNK = 10_000;

interface Row {
  id: number;
  title: string | null;
}

/** What differs between PostgreSQL and SQLite for the backfill; the algorithm is the same. */
export interface PublishingBackfillDialect {
  param(n: number): string;
  /** Makes `work` one short transaction (PostgreSQL, online) or part of the caller's (SQLite). */
  batch<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL, online: a lock taken before a batch checks and writes its slugs, when `needed`
   * says some of them could be chosen meanwhile by the previous release's trigger.
   */
  lockSlugs?: { statement: string; needed(slugs: readonly string[]): boolean };
  /** Of the slugs in JSON array $1, those some article has. */
  takenAmong: string;
  /** Sets slug and published_at from $1, a JSON array of [id, slug], where slug is still null. */
  update: string;
}

/**
 * The slugs of the rule: an article's base is `slugFromTitle(title)`; when another article
 * (one with a smaller id, or any that has a slug already) has it, the smallest free
 * `slugWithSuffix(base, n)`, n = 2, 3, … Articles are given theirs in id order.
 */
export class SlugAllocator {
  private readonly taken = new Set<string>();
  /** Per base, an n such that every suffix 2..n-1 is taken: a title shared by thousands stays linear. */
  private readonly firstMaybeFree = new Map<string, number>();

  take(slug: string): void {
    this.taken.add(slug);
  }

  /** Slugs for `rows` (in id order), none taken and no two alike; nothing is taken until `take`. */
  propose(rows: readonly Row[]): Map<number, string> {
    const chosen = new Map<number, string>();
    const inBatch = new Set<string>();
    const free = (slug: string) => !this.taken.has(slug) && !inBatch.has(slug);
    for (const row of rows) {
      const base = slugFromTitle(row.title);
      let slug = base;
      if (!free(base)) {
        let n = this.firstMaybeFree.get(base) ?? 2;
        while (this.taken.has(slugWithSuffix(base, n))) n++;
        this.firstMaybeFree.set(base, n);
        while (!free(slugWithSuffix(base, n))) n++;
        slug = slugWithSuffix(base, n);
      }
      inBatch.add(slug);
      chosen.set(row.id, slug);
    }
    return chosen;
  }
}

export interface BackfillProgress {
  batches: number;
  articles: number;
  /** The longest batch's transaction, in milliseconds. */
  longestBatchMs: number;
}

/**
 * Fills published_at (created_at where visible) and slug of every article whose slug is still
 * null, in batches by id. Re-runnable: rows done by an earlier, interrupted run (or written by
 * the previous release's trigger) have their slug and are skipped, and their slugs count as
 * taken. Each batch's slugs are checked against the table inside its transaction, since
 * writers other than this backfill may have taken some since they were read; a pass that ends
 * with a null slug left behind (a row whose update lost to another writer) starts over.
 */
export async function backfillPublishing(
  runner: QueryRunner,
  dialect: PublishingBackfillDialect,
  afterBatch: (progress: BackfillProgress) => Promise<void> = async () => {},
): Promise<BackfillProgress> {
  const { param } = dialect;
  const allocator = new SlugAllocator();
  for (let after = ''; ; ) {
    const rows: { slug: string }[] = await runner.query(
      `SELECT slug FROM articles WHERE slug > ${param(1)} ORDER BY slug LIMIT ${TAKEN_CHUNK}`,
      [after],
    );
    for (const row of rows) allocator.take(row.slug);
    if (rows.length < TAKEN_CHUNK) break;
    after = (rows[rows.length - 1] as { slug: string }).slug;
  }
  const progress: BackfillProgress = { batches: 0, articles: 0, longestBatchMs: 0 };
  for (;;) {
    let after = 0;
    for (;;) {
      const started = performance.now();
      const written = await dialect.batch(async (batchRunner) => {
        // By id alone, and the slugs sorted out here: with `slug IS NULL` in the statement the
        // planner reads every null of the slug index and sorts them, batch after batch.
        const rows: (Row & { slug: string | null })[] = await batchRunner.query(
          `SELECT id, title, slug FROM articles WHERE id > ${param(1)} ORDER BY id LIMIT ${PUBLISHING_BATCH}`,
          [after],
        );
        if (rows.length === 0) return null;
        const lastId = (rows[rows.length - 1] as Row).id;
        const pending = rows.filter((row) => row.slug === null);
        if (pending.length === 0) return { chosen: new Map<number, string>(), lastId };
        let chosen = allocator.propose(pending);
        // The lock only now, for the check and the write: a writer waiting for it waits less. (The
        // proposal does not change after it: the trigger never writes what `needed` lets pass.)
        if (dialect.lockSlugs?.needed([...chosen.values()])) await batchRunner.query(dialect.lockSlugs.statement);
        for (;;) {
          const clashes: { slug: string }[] = await batchRunner.query(dialect.takenAmong, [
            JSON.stringify([...chosen.values()]),
          ]);
          if (clashes.length === 0) break;
          for (const clash of clashes) allocator.take(clash.slug);
          chosen = allocator.propose(pending);
        }
        await batchRunner.query(dialect.update, [JSON.stringify([...chosen])]);
        return { chosen, lastId };
      });
      if (written === null) break;
      // Taken only once committed: a batch that was retried proposes again from the same state.
      for (const slug of written.chosen.values()) allocator.take(slug);
      after = written.lastId;
      progress.batches++;
      progress.articles += written.chosen.size;
      progress.longestBatchMs = Math.max(progress.longestBatchMs, performance.now() - started);
      await afterBatch(progress);
    }
    const left: unknown[] = await runner.query('SELECT id FROM articles WHERE slug IS NULL LIMIT 1');
    if (left.length === 0) return progress;
  }
}
