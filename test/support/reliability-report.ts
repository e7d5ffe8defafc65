import fs from 'node:fs';
import path from 'node:path';

/** One measured row of test-artifacts/reliability/report.md (docs/RELIABILITY.md quotes its figures). */
export interface ScenarioResult {
  scenario: string;
  /** The test file's name without its extension, for the command that reproduces the row. */
  file: string;
  storage: string;
  /** What was done, in a sentence. */
  done: string;
  requests: number;
  /** Requests without a 2xx answer, by kind (`http 503`, `network ECONNREFUSED`, ...). */
  errors: Record<string, number>;
  writesAcknowledged: number;
  writesFound: number;
  /** Recovery time, exit code, memory trend: what this scenario measures beyond the counts. */
  outcome: string;
  seed?: number;
}

const RESULTS_DIR = path.resolve(__dirname, '../../test-artifacts/reliability');

/** Each reliability test records its row; the project's teardown renders them all. */
export function recordScenario(result: ScenarioResult): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${result.scenario}-${result.storage}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  fs.writeFileSync(path.join(RESULTS_DIR, `${file}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

export function readRecordedScenarios(): ScenarioResult[] {
  if (!fs.existsSync(RESULTS_DIR)) return [];
  return fs
    .readdirSync(RESULTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, name), 'utf8')) as ScenarioResult);
}

/** Removes the rows of an earlier run, so the table shows only this one. */
export function clearRecordedScenarios(): void {
  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
}

export function renderTable(results: readonly ScenarioResult[]): string {
  const header =
    '| scenario | storage | what was done | requests | errors by kind | writes acknowledged / found | outcome | reproduce |';
  const rule = '| --- | --- | --- | ---: | --- | ---: | --- | --- |';
  const rows = results.map((result) =>
    [
      result.scenario,
      result.storage,
      result.done,
      String(result.requests),
      describeErrors(result.errors),
      `${result.writesAcknowledged} / ${result.writesFound}`,
      result.outcome,
      `\`${reproduce(result)}\``,
    ]
      .map((cell) => cell.replaceAll('|', '\\|'))
      .join(' | '),
  );
  return [header, rule, ...rows.map((row) => `| ${row} |`)].join('\n');
}

/** The same scenario, same seed (kill moments, traffic mix): `npm run test:reliability -- <file>`. */
function reproduce(result: ScenarioResult): string {
  const seed = result.seed === undefined ? '' : `RELIABILITY_SEED=${result.seed} `;
  return `${seed}npm run test:reliability -- ${result.file}`;
}

function describeErrors(errors: Record<string, number>): string {
  const entries = Object.entries(errors).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? 'none' : entries.map(([kind, count]) => `${kind}: ${count}`).join(', ');
}

export { RESULTS_DIR };
