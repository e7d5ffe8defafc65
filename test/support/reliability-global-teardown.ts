import fs from 'node:fs';
import path from 'node:path';
import { stopPostgresTestServer } from './postgres-global-setup';
import { RESULTS_DIR, readRecordedScenarios, renderTable } from './reliability-report';

/** Stops the test PostgreSQL and prints the measured table (also in test-artifacts/reliability/report.md). */
export default async function teardown(): Promise<void> {
  await stopPostgresTestServer();
  const results = readRecordedScenarios();
  if (results.length === 0) return;
  const table = renderTable(results);
  fs.writeFileSync(path.join(RESULTS_DIR, 'report.md'), `${table}\n`);
  process.stdout.write(`\nMeasured (test-artifacts/reliability/report.md):\n\n${table}\n\n`);
}
