import fs from 'node:fs';
import path from 'node:path';
import { sqliteDriverPackage } from '../../../src/infrastructure/persistence/typeorm/sqlite-driver';
import { describeLines, enginesRange, judgeNodeVersion, NODE_LINES } from '../../../src/process/node-lines';

const packageJson = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));

describe('the supported Node.js lines', () => {
  it('are what package.json engines says', () => {
    expect(packageJson.engines.node).toBe(enginesRange());
    expect(enginesRange()).toBe('^20.19.0 || ^22.15.0 || ^24.0.0 || ^26.0.0');
  });

  it('are typed by @types/node of the lowest line, so that the code uses no newer API', () => {
    expect(packageJson.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${NODE_LINES[0].major}\\.`));
  });

  it.each(['v20.19.0', 'v20.20.2', 'v22.15.0', 'v22.23.3', 'v24.0.0', 'v24.21.0', 'v26.10.0'])(
    'run on %s',
    (version) => {
      expect(judgeNodeVersion(version).supported).toBe(true);
    },
  );

  it.each(['v18.20.8', 'v20.18.3', 'v21.7.3', 'v22.14.0', 'v23.11.1', 'v25.2.0', 'v27.0.0'])(
    'refuse %s in one line that names the supported lines',
    (version) => {
      const verdict = judgeNodeVersion(version);
      expect(verdict).toEqual({
        supported: false,
        message:
          `Node.js ${version} is not supported: this service runs on Node.js ` +
          '20.19.0 or newer on 20, 22.15.0 or newer on 22, 24 or 26. Install one of those, then run `npm ci` again.',
      });
      expect(describeLines()).toBe('20.19.0 or newer on 20, 22.15.0 or newer on 22, 24 or 26');
    },
  );

  it('warn on 20 only, which is past its end of life', () => {
    expect(judgeNodeVersion('v20.20.2')).toEqual({
      supported: true,
      warning: expect.stringMatching(
        /^Node\.js 20 reached its end of life on 2026-04-30; .* Move to Node\.js 22, 24 or 26\.$/,
      ),
    });
    for (const { major } of NODE_LINES.filter((line) => line.major !== 20)) {
      expect(judgeNodeVersion(`v${major}.15.0`)).toEqual({ supported: true });
    }
  });

  it('load better-sqlite3 12 (the alias) on 20 alone, and 13 on every other line', () => {
    expect(sqliteDriverPackage('20.20.2')).toBe('better-sqlite3-node20');
    for (const version of ['22.23.3', '24.21.0', '26.10.0'])
      expect(sqliteDriverPackage(version)).toBe('better-sqlite3');
    expect(packageJson.optionalDependencies['better-sqlite3-node20']).toMatch(/^npm:better-sqlite3@\^12\./);
    expect(packageJson.dependencies['better-sqlite3']).toMatch(/^\^13\./);
  });
});
