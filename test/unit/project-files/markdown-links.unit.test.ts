import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
/** Folders that are not the repository's own documents: installed, built or generated. */
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-artifacts']);

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return NOT_OURS.has(entry.name) ? [] : markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text a reader sees as prose: code blocks and code spans hold examples, not links. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** Targets of inline links and images, reference definitions, and HTML href/src. */
function linkTargets(markdown: string): string[] {
  const prose = withoutCode(markdown);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
  const definitions = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] ?? '');
  const html = [...prose.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
  return [...inline, ...definitions, ...html];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsIn(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm);
  return new Set([...headings].map((match) => anchorOf(match[1] ?? '')));
}

/** What is wrong with one link of `file`, or null when it resolves inside the repository. */
function problemWith(file: string, target: string): string | null {
  if (/^https?:\/\//i.test(target) || /^mailto:/i.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'uses a scheme other than http(s) or mailto';
  const [pathPart = '', anchor] = target.split('#');
  const decoded = decodeURIComponent(pathPart);
  if (decoded.startsWith('/')) return 'is an absolute path (write it relative to the file)';
  const resolved = decoded === '' ? file : path.resolve(path.dirname(file), decoded);
  const inside = path.relative(ROOT, resolved);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return 'leaves the repository';
  if (!fs.existsSync(resolved)) return 'names no file of the repository';
  if (anchor && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
    return `names no heading #${anchor}`;
  }
  return null;
}

describe("the repository's Markdown links", () => {
  const files = markdownFiles(ROOT);

  it('finds the documents: the README and docs/, the API reference among them', () => {
    const names = files.map((file) => path.relative(ROOT, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'API.md')]));
  });

  it('point only at files inside the repository (or at web addresses)', () => {
    const problems = files.flatMap((file) =>
      linkTargets(fs.readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = problemWith(file, target);
        return problem ? [`${path.relative(ROOT, file)}: ${target} ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('would catch a link out of the repository, a missing file and a missing heading', () => {
    const readme = path.join(ROOT, 'README.md');
    expect(problemWith(readme, '../shared/api.md')).toBe('leaves the repository');
    expect(problemWith(readme, 'docs/NOPE.md')).toBe('names no file of the repository');
    expect(problemWith(readme, 'docs/API.md#no-such-heading')).toBe('names no heading #no-such-heading');
    expect(problemWith(readme, '/etc/passwd')).toBe('is an absolute path (write it relative to the file)');
    expect(linkTargets('See [the contract](../shared/api.md) and [x]: <docs/API.md>')).toEqual(['../shared/api.md']);
  });
});
