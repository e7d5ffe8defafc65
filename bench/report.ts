import os from 'node:os';
import type { RunFigures } from './measure';

/** Every run of one scenario on one storage, per target (service, the floors, …), in run order. */
export interface ScenarioRuns {
  key: string;
  title: string;
  /** The least service / Express floor req/s ratio (Scenario.target); null: none. */
  target: number | null;
  /** The least service / stack floor req/s ratio (Scenario.stackFloorTarget). */
  stackFloorTarget?: number;
  runs: Record<string, RunFigures[]>;
}

/** The raw node:http floor's label (`baseline` in results files written before the Express floor). */
export const RAW_FLOOR = 'raw floor';
const LEGACY_RAW_FLOOR = 'baseline';
/** The bare Express 5 floor's label: what the service is judged against. */
export const EXPRESS_FLOOR = 'Express floor';
/** The service's p99 may be at most this many times the Express floor's (issue 27). */
export const P99_TARGET_FACTOR = 1.5;
/** The lean build of the same stack (stack-floor.ts). */
export const STACK_FLOOR = 'stack floor';
/** The service's p99 may be at most this many times the stack floor's (issue 39). */
export const STACK_FLOOR_P99_FACTOR = 1.3;

export interface PassReport {
  storage: string;
  targets: string[];
  scenarios: ScenarioRuns[];
  /** Highest resident memory of each target's process tree during the pass, in MB. */
  peakRssMb: Record<string, number>;
  notes: string[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median of the per-round ratios: each round's two runs ran back to back on the same machine state. */
export function medianRatio(numerator: readonly RunFigures[], denominator: readonly RunFigures[]): number {
  return median(
    numerator.map((run, round) => run.requestsPerSecond / (denominator[round]?.requestsPerSecond ?? Number.NaN)),
  );
}

/** Median of the per-round ratios of CPU time per answer (see RunFigures.cpuUsPerRequest). */
export function medianCpuRatio(numerator: readonly RunFigures[], denominator: readonly RunFigures[]): number {
  return median(
    numerator.map(
      (run, round) => (run.cpuUsPerRequest ?? Number.NaN) / (denominator[round]?.cpuUsPerRequest ?? Number.NaN),
    ),
  );
}

export function summarize(runs: readonly RunFigures[]) {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

export function totalErrors(pass: PassReport): number {
  return pass.scenarios.reduce(
    (sum, scenario) => sum + Object.values(scenario.runs).reduce((s, runs) => s + summarize(runs).errors, 0),
    0,
  );
}

const number = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

/**
 * A Markdown table: readable in a terminal, and the source of docs/PERFORMANCE.md's figures.
 * With the floors in the pass, each other target's ratio to the Express floor and to the raw
 * floor (and the Express floor's to the raw one: what Express itself costs), and the service's
 * targets, judged against the Express floor: req/s ratio and p99.
 */
export function formatPass(pass: PassReport): string {
  const raw = pass.targets.find((target) => target === RAW_FLOOR || target === LEGACY_RAW_FLOOR) ?? null;
  const express = pass.targets.includes(EXPRESS_FLOOR) ? EXPRESS_FLOOR : null;
  const measured = pass.targets.filter((target) => target !== raw && target !== express);
  const stack = pass.targets.includes(STACK_FLOOR) ? STACK_FLOOR : null;
  const ratios: Array<[string, string]> = [
    ...(stack ? [['service', stack] as [string, string]] : []),
    ...(express ? measured.map((target): [string, string] => [target, express]) : []),
    ...(raw ? [...measured, ...(express ? [express] : [])].map((target): [string, string] => [target, raw]) : []),
  ];
  const header = ['scenario'];
  for (const target of pass.targets) header.push(`${target} req/s`, 'p50 ms', 'p99 ms');
  for (const [numerator, denominator] of ratios) header.push(`${numerator} / ${denominator}`);
  if (stack) header.push(`target (vs ${stack})`);
  if (express) header.push(`target (vs ${express})`);
  header.push('errors');
  const rows = pass.scenarios.map((scenario) => {
    const row = [scenario.title];
    for (const target of pass.targets) {
      const figures = summarize(scenario.runs[target] ?? []);
      row.push(number(figures.requestsPerSecond), number(figures.p50Ms, 1), number(figures.p99Ms, 1));
    }
    for (const [numerator, denominator] of ratios) {
      const runs = scenario.runs[numerator] ?? [];
      const base = scenario.runs[denominator] ?? [];
      const rounds = runs.map((run, round) => number(run.requestsPerSecond / (base[round]?.requestsPerSecond ?? 0), 2));
      // The median first, then each round's ratio: the spread shows the machine's noise.
      row.push(`${number(medianRatio(runs, base), 2)} (${rounds.join(', ')})`);
    }
    if (stack) {
      const target = scenario.stackFloorTarget ?? null;
      row.push(verdict(target, STACK_FLOOR_P99_FACTOR, scenario.runs.service ?? [], scenario.runs[stack] ?? []));
    }
    if (express) {
      row.push(verdict(scenario.target, P99_TARGET_FACTOR, scenario.runs.service ?? [], scenario.runs[express] ?? []));
    }
    row.push(String(Object.values(scenario.runs).reduce((sum, runs) => sum + summarize(runs).errors, 0)));
    return row;
  });
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  const rss = Object.entries(pass.peakRssMb)
    .map(([target, mb]) => `${target} ${number(mb)} MB`)
    .join(', ');
  return [
    `### ${pass.storage}`,
    '',
    line(header),
    rule,
    ...rows.map(line),
    '',
    `Peak RSS under load: ${rss}.`,
    ...pass.notes.map((note) => `${note}`),
  ].join('\n');
}

/** The service against a floor: the least req/s ratio, and a p99 at most `p99Factor` times the floor's. */
function verdict(
  target: number | null,
  p99Factor: number,
  service: readonly RunFigures[],
  floor: readonly RunFigures[],
): string {
  if (target === null || service.length === 0 || floor.length === 0) return '–';
  const ratio = medianRatio(service, floor);
  const p99 = summarize(service).p99Ms / summarize(floor).p99Ms;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return `≥ ${target} ${met(ratio >= target)}; p99 ${number(p99, 2)}× ≤ ${p99Factor}× ${met(p99 <= p99Factor)}`;
}

/** The 1, 5 and 15 minute load averages, as the runs print them. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function describeMachine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.availableParallelism()} cores (${cpu}), ${number(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.type()} ${os.release()}`;
}
