import fs from 'node:fs';
import { formatPass, type PassReport } from './report';

/** Prints the tables of a results file again: `npm run bench -- report bench/results/<file>.json`. */
export function printResultsFile(file: string): void {
  const results = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    startedAt: string;
    machine: string;
    service?: string;
    loadAverage?: { start: number[]; end: number[] };
    passes: PassReport[];
  };
  console.log(`Run of ${results.startedAt} on ${results.machine}, service ${results.service ?? 'dist/src/main.js'}`);
  if (results.loadAverage) {
    const show = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ');
    console.log(`Load average at start ${show(results.loadAverage.start)}, at end ${show(results.loadAverage.end)}`);
  }
  for (const pass of results.passes) {
    console.log(`\n${formatPass(pass)}`);
  }
}
