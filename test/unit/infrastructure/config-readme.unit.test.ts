import fs from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT } from '../../../src/infrastructure/config/environment';

/** Every variable the schema reads. */
const VARIABLE_NAMES = Object.keys(ENVIRONMENT.shape);

/** The variable names in the first column of the README's "Configuration" table. */
function readmeConfigurationVariables(): string[] {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const section = /^## Configuration\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README.md has no "## Configuration" section');
  return [...section.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((row) => row[1] as string);
}

describe('the README configuration table', () => {
  const documented = readmeConfigurationVariables();

  it('documents every variable of the schema', () => {
    expect(VARIABLE_NAMES.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('documents no variable the schema does not read, and each once', () => {
    expect(documented.filter((name) => !VARIABLE_NAMES.includes(name))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });
});
