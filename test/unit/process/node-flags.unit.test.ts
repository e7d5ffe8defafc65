import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../../src/process/node-flags';

const MB = 1024 * 1024;

/** Churns through short-lived objects, as the whole list does, and answers the new space's size. */
const CHURN = `
  let kept = [];
  for (let i = 0; i < 3e6; i++) { kept.push({ i, text: 'x' + i }); if (kept.length > 200000) kept = []; }
  const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stdout.write(String(space.space_size));
`;

describe("the service's Node.js flags", () => {
  it('are the ones npm start passes', () => {
    const packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
    const command = /exec node (.*) dist\/src\/main\.js$/.exec(packageJson.scripts.start);
    expect(command?.[1]?.split(' ')).toEqual(SERVICE_NODE_FLAGS);
  });

  it('keep the young generation at the 32 MB that Node.js 20 and 22 give it, whatever the machine', () => {
    const newSpace = Number(execFileSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', CHURN], { encoding: 'utf8' }));
    expect(newSpace).toBeGreaterThan(0);
    expect(newSpace).toBeLessThanOrEqual(32 * MB);
  });
});
