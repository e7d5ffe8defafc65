import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withPostgresClient } from '../test/support/postgres-sql';
import { openPostgres } from './databases';
import { BENCH_TOKEN, SERVICE_ENV } from './http-client';
import { DIST } from './paths';
import { startService } from './processes';
import { cleanups } from './run-main';
import { seedPostgres } from './seed-at-size';

/**
 * `npm run bench -- migrate-live`: the publishing migration on a live PostgreSQL. The previous
 * release (a git ref, HEAD by default: the schema before this tree's migrations) is built in a
 * temporary folder and serves N articles seeded in SQL, while C clients write through it
 * (creates and updates, each recorded with its invocation and completion); this tree's
 * migration then runs in a process of its own (migrateUnderLock, as every start runs it). It
 * prints the migration's total and per-step times, the longest pause between acknowledged
 * writes during it and, as a baseline, over as long a time before it, the writes refused or
 * failed, and then checks every row: published_at and slug as the migration and the trigger
 * promise, no duplicate slug, and every write made during the migration among them.
 */
export interface MigrateLiveOptions {
  articles: number;
  clients: number;
  /** The git ref of the previous release. */
  previous: string;
}

/** Writes before the migration, measured as the baseline. */
const BASELINE_MS = 10_000;
/** Writes go on after the migration, through the trigger only. */
const AFTER_MS = 3_000;
const ROOT = path.resolve(DIST, '..');
const MIGRATION_SCRIPT = path.join(DIST, 'bench', 'migrate-live-migration.js');

interface Write {
  kind: 'create' | 'update';
  invoked: number;
  completed: number;
  ok: boolean;
  /** The created or updated article. */
  id: number | null;
  failure?: string;
}

interface MigrationRun {
  started: number;
  ended: number;
  /** The migration's own measure, from its data source's start to its end. */
  internalMs: number;
  messages: { at: number; message: string }[];
}

export async function runMigrateLive(options: MigrateLiveOptions): Promise<void> {
  const previous = buildPrevious(options.previous);
  const database = await openPostgres();
  cleanups.push(() => database.close());
  console.log(`${database.description}; previous release ${previous.describe}`);

  execFileSync(process.execPath, [previous.migrate], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const seedStarted = performance.now();
  const seeded = await seedPostgres(database.url, options.articles);
  await varyTitles(database.url);
  console.log(
    `seeded ${seeded.articles} articles (${seeded.visible} visible) in the previous schema in ` +
      `${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  const service = await startService('previous release', previous.main, {
    ...SERVICE_ENV,
    DATABASE_URL: database.url,
  });
  cleanups.push(() => service.stop());

  const writes: Write[] = [];
  const ids = { highest: seeded.lastId };
  let writing = true;
  const clients = Array.from({ length: options.clients }, (_, client) =>
    writeUntilStopped(service.url, client, ids, writes, () => writing),
  );
  let migration: MigrationRun;
  try {
    await sleep(BASELINE_MS);
    service.checkAlive();
    console.log(`${options.clients} clients writing through the previous release; migrating…`);
    migration = await runMigration(database.url);
    await sleep(AFTER_MS);
  } finally {
    writing = false;
    await Promise.all(clients);
  }
  service.checkAlive();
  report(migration, writes);
  const problems = await checkRows(database.url, migration, writes);
  if (problems.length > 0) throw new Error(`migrate-live: ${problems.join('; ')}`);
  console.log('every row checked: published_at and slug set as promised, no duplicate slug');
}

interface PreviousRelease {
  describe: string;
  main: string;
  migrate: string;
}

/**
 * The service at `ref`, from `git archive` into a temporary folder (removed at the end), built
 * there with this checkout's node_modules (a symbolic link). Refused when that release already
 * has the publishing migration: it would not be the previous one.
 */
function buildPrevious(ref: string): PreviousRelease {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-previous-'));
  cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', `${ref}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  const tar = path.join(folder, 'release.tar');
  execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', '-o', tar, commit]);
  execFileSync('tar', ['-xf', tar, '-C', folder]);
  fs.rmSync(tar);
  const migrations = fs.readFileSync(
    path.join(folder, 'src', 'infrastructure', 'persistence', 'typeorm', 'migrations', 'index.ts'),
    'utf8',
  );
  if (migrations.includes('Publishing')) {
    throw new Error(`${ref} (${commit}) already has the publishing migration: pass --previous <an earlier commit>`);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: folder,
    stdio: 'inherit',
  });
  return {
    describe: `${ref} (${commit}), built in ${folder}`,
    main: path.join(folder, 'dist', 'src', 'main.js'),
    migrate: path.join(folder, 'dist', 'src', 'migrate.js'),
  };
}

/**
 * Titles that give the slug rule work: one in 50 articles shares a title, one in 50 has none
 * (its base, "article", is also the start of every "Article n" slug), and some are Han or
 * Cyrillic. Straight in SQL, as the previous release would have stored them (the folded search
 * copies are left as they were: nothing here searches).
 */
async function varyTitles(url: string): Promise<void> {
  await withPostgresClient(url, async (client) => {
    await client.query(`UPDATE articles SET title = CASE id % 50
                          WHEN 0 THEN 'Weekly notes' WHEN 1 THEN NULL
                          WHEN 2 THEN '北京欢迎你 ' || (id % 7) ELSE 'Привет, мир' END
                        WHERE id % 50 < 4`);
    await client.query('VACUUM ANALYZE articles');
  });
}

/** One client: a create or an update of any article (1 in 2 each), one at a time, until stopped. */
async function writeUntilStopped(
  baseUrl: string,
  client: number,
  ids: { highest: number },
  writes: Write[],
  going: () => boolean,
): Promise<void> {
  for (let n = 0; going(); n++) {
    const create = Math.random() < 0.5;
    const id = create ? null : 1 + Math.floor(Math.random() * ids.highest);
    const body = create
      ? { title: n % 5 === 0 ? 'Weekly notes' : `Live write ${client}-${n}`, content: 'c', visible: n % 3 !== 0 }
      : { id, visible: Math.random() < 0.7, ...(n % 4 === 0 ? { title: `Updated ${client}-${n}` } : {}) };
    const invoked = performance.now();
    const write: Write = { kind: create ? 'create' : 'update', invoked, completed: 0, ok: false, id };
    try {
      const response = await fetch(`${baseUrl}/article/${create ? 'create' : 'update'}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${BENCH_TOKEN}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const answer = JSON.parse(text) as { statusCode: number; data: { id: number } | null };
      write.ok = response.ok && answer.statusCode === 10000;
      if (write.ok && create && answer.data) {
        write.id = answer.data.id;
        ids.highest = Math.max(ids.highest, answer.data.id);
      }
      if (!write.ok) write.failure = `${response.status} ${text.slice(0, 120)}`;
    } catch (error) {
      write.failure = error instanceof Error ? error.message : String(error);
    }
    write.completed = performance.now();
    writes.push(write);
  }
}

/** The migration in a process of its own; its messages, with their times on this process's clock. */
function runMigration(url: string): Promise<MigrationRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [MIGRATION_SCRIPT], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const ended = performance.now();
      if (code !== 0) {
        reject(new Error(`the migration exited ${code}:\n${stderr}`));
        return;
      }
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { at?: number; message?: string; done?: number });
      resolve({
        started,
        ended,
        internalMs: lines.find((line) => line.done !== undefined)?.done ?? Number.NaN,
        messages: lines.flatMap((line) =>
          line.message === undefined ? [] : [{ at: line.at as number, message: line.message }],
        ),
      });
    });
  });
}

/** The longest time in [from, to] with no write acknowledged, and where it began. */
function longestPause(writes: readonly Write[], from: number, to: number): { ms: number; at: number } {
  const acknowledged = writes
    .filter((write) => write.ok && write.completed > from && write.completed < to)
    .map((write) => write.completed)
    .sort((a, b) => a - b);
  let longest = { ms: 0, at: from };
  let last = from;
  for (const at of [...acknowledged, to]) {
    if (at - last > longest.ms) longest = { ms: at - last, at: last };
    last = at;
  }
  return longest;
}

interface Window {
  label: string;
  from: number;
  to: number;
}

function windowFigures(writes: readonly Write[], window: Window) {
  const inside = writes.filter((write) => write.invoked >= window.from && write.invoked < window.to);
  const durations = inside.filter((write) => write.ok).map((write) => write.completed - write.invoked);
  durations.sort((a, b) => a - b);
  const quantile = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] ?? 0;
  return {
    pause: longestPause(writes, window.from, window.to),
    acknowledged: durations.length,
    perSecond: durations.length / ((window.to - window.from) / 1000),
    failed: inside.filter((write) => !write.ok),
    p50: quantile(0.5),
    p99: quantile(0.99),
    max: durations[durations.length - 1] ?? 0,
  };
}

const STEP = /^(\w+): ([^:]+): (\d+) ms(?: \((\d+) transactions\))?$/;

function report(migration: MigrationRun, writes: readonly Write[]): void {
  const total = migration.ended - migration.started;
  console.log(
    `\nmigration: ${(total / 1000).toFixed(2)} s from process start to exit ` +
      `(${(migration.internalMs / 1000).toFixed(2)} s inside: connect, lock, migrate, commit)`,
  );
  for (const { at, message } of migration.messages) {
    const step = STEP.exec(message);
    if (step) {
      const attempts = step[4] && Number(step[4]) > 1 ? `, ${step[4]} transactions` : '';
      console.log(`  ${(step[2] as string).padEnd(20)} ${String(step[3]).padStart(7)} ms${attempts}`);
    } else if (/^\w+\d{13}: /.test(message)) {
      console.log(`  (${(at / 1000).toFixed(2)} s) ${message}`);
    }
  }
  const windows: Window[] = [
    { label: 'before (baseline)', from: migration.started - BASELINE_MS, to: migration.started },
    { label: 'during migration', from: migration.started, to: migration.ended },
    { label: 'after', from: migration.ended, to: migration.ended + AFTER_MS },
  ];
  console.log(
    '\n| writes | span | acknowledged | per s | refused or failed | longest pause | p50 | p99 | slowest |\n' +
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const window of windows) {
    const figures = windowFigures(writes, window);
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(
      `| ${window.label} | ${((window.to - window.from) / 1000).toFixed(1)} s | ${figures.acknowledged} | ` +
        `${figures.perSecond.toFixed(0)} | ${figures.failed.length} | ${ms(figures.pause.ms)} ` +
        `(at +${((figures.pause.at - window.from) / 1000).toFixed(2)} s) | ${ms(figures.p50)} | ${ms(figures.p99)} | ` +
        `${ms(figures.max)} |`,
    );
    for (const write of figures.failed.slice(0, 5)) console.log(`    ${write.kind}: ${write.failure}`);
  }
}

/**
 * Every row: a slug of the slug pattern, none twice, published_at set exactly where visible
 * (backfilled as created_at, or by the trigger for the previous release's writes); every create
 * acknowledged is there; and the schema as the migration leaves it.
 */
async function checkRows(url: string, migration: MigrationRun, writes: readonly Write[]): Promise<string[]> {
  return withPostgresClient(url, async (client) => {
    const problems: string[] = [];
    const [rows] = (
      await client.query(`
        SELECT count(*)::int AS articles, count(*) FILTER (WHERE slug IS NULL)::int AS "withoutSlug",
               count(*) FILTER (WHERE slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' OR length(slug) > 185)::int AS "badSlug",
               (count(*) - count(DISTINCT slug))::int AS "repeatedSlugs",
               count(*) FILTER (WHERE (published_at IS NOT NULL) <> visible)::int AS "publishedAtNotVisible"
          FROM articles`)
    ).rows;
    console.log(
      `\nrows: ${rows.articles} articles; without slug ${rows.withoutSlug}, bad slug ${rows.badSlug}, repeated slug ${rows.repeatedSlugs}, ` +
        `published_at not matching visible ${rows.publishedAtNotVisible}`,
    );
    for (const key of ['withoutSlug', 'badSlug', 'repeatedSlugs', 'publishedAtNotVisible']) {
      if (rows[key] !== 0) problems.push(`${rows[key]} articles: ${key}`);
    }

    const during = writes.filter(
      (write) => write.ok && write.completed > migration.started && write.invoked < migration.ended,
    );
    const created = writes.filter((write) => write.ok && write.kind === 'create').map((write) => write.id);
    const touched = [...new Set(during.map((write) => write.id))];
    const [written] = (
      await client.query(
        `SELECT (SELECT count(*)::int FROM articles WHERE id = ANY($1::int[])) AS created,
                (SELECT count(*)::int FROM articles WHERE id = ANY($2::int[]) AND slug IS NOT NULL
                    AND (published_at IS NOT NULL) = visible) AS "duringComplete"`,
        [created, touched],
      )
    ).rows;
    console.log(
      `writes during the migration: ${during.length} acknowledged on ${touched.length} articles, ` +
        `${written.duringComplete} of them with slug and published_at; acknowledged creates found: ` +
        `${written.created} of ${created.length}`,
    );
    if (written.created !== created.length)
      problems.push(`${created.length - written.created} acknowledged creates lost`);
    if (written.duringComplete !== touched.length) {
      problems.push(
        `${touched.length - written.duringComplete} articles written during the migration lack slug or published_at`,
      );
    }

    const [schema] = (
      await client.query(`
        SELECT (SELECT attnotnull FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attname = 'slug') AS "slugNotNull",
               (SELECT bool_and(indisvalid) FROM pg_index
                 WHERE indexrelid IN ('articles_slug_key'::regclass, 'articles_published_at_idx'::regclass)) AS "indexesValid",
               (SELECT count(*)::int FROM schema_migrations WHERE name LIKE 'Publishing%') AS recorded`)
    ).rows;
    console.log(
      `schema: slug NOT NULL ${schema.slugNotNull}, indexes valid ${schema.indexesValid}, recorded ${schema.recorded === 1}`,
    );
    if (!schema.slugNotNull || !schema.indexesValid || schema.recorded !== 1) problems.push('schema incomplete');
    return problems;
  });
}
