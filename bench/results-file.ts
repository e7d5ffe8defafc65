import fs from 'node:fs';
import path from 'node:path';
import { RESULTS } from './paths';

/**
 * Writes a run's figures to bench/results/<kind>-<time>.json and returns that path from the
 * working directory, for the run's last line.
 */
export function writeResultsFile(kind: string, results: object): string {
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}
