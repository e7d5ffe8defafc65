import fs from 'node:fs';
import path from 'node:path';

/**
 * Reads a config template under deploy/ and fills its `{{NAME}}` placeholders. Every
 * placeholder must have a value and every value a placeholder, so a template and the code that
 * fills it cannot drift apart unnoticed.
 */
export function renderTemplate(repoRoot: string, template: string, values: Record<string, string | number>): string {
  const text = fs.readFileSync(path.join(repoRoot, 'deploy', template), 'utf8');
  const used = new Set<string>();
  const rendered = text.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/${template}: no value for {{${name}}}`);
    used.add(name);
    return String(value);
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`deploy/${template}: no placeholder for ${unused.join(', ')}`);
  return rendered;
}
