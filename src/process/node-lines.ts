/**
 * The Node.js lines this service runs on: package.json's `engines` says the same (a unit test
 * compares them), and CI proves each one (CONTRIBUTING.md, "Node.js lines").
 *
 * The lower bounds are where `require()` of an ES module works unflagged, which inversify 8 and
 * cuid2 need, and on 22 the OpenTelemetry packages' own floor.
 */
export const NODE_LINES = [
  // The Node.js 20 path (with better-sqlite3 12, see sqlite-driver.ts) goes away when CI's machine
  // leaves Node.js 20: docs/adr/0001.
  { major: 20, lowest: '20.19.0', endOfLife: '2026-04-30' },
  { major: 22, lowest: '22.15.0' },
  { major: 24, lowest: '24.0.0' },
  { major: 26, lowest: '26.0.0' },
] as const;

export type NodeLineVerdict = { supported: true; warning?: string } | { supported: false; message: string };

/** Whether this service runs on the given Node.js version, and what to tell the user if not. */
export function judgeNodeVersion(version: string): NodeLineVerdict {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  const line = NODE_LINES.find((candidate) => candidate.major === parts[0]);
  if (!line || compareVersions(parts, line.lowest.split('.').map(Number)) < 0) {
    return {
      supported: false,
      message:
        `Node.js ${version} is not supported: this service runs on Node.js ${describeLines()}. ` +
        'Install one of those, then run `npm ci` again.',
    };
  }
  if ('endOfLife' in line) {
    return {
      supported: true,
      warning:
        `Node.js ${line.major} reached its end of life on ${line.endOfLife}; this service still runs on it ` +
        `until CI's machine moves on. Move to Node.js ${maintainedLines()}.`,
    };
  }
  return { supported: true };
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** "20.19 or newer on 20, 22.15 or newer on 22, 24 or 26", for messages. */
export function describeLines(): string {
  const names = NODE_LINES.map(({ major, lowest }) =>
    lowest === `${major}.0.0` ? `${major}` : `${lowest} or newer on ${major}`,
  );
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** "22, 24 or 26": the supported lines that are not past their end of life. */
function maintainedLines(): string {
  const majors = NODE_LINES.filter((line) => !('endOfLife' in line)).map((line) => `${line.major}`);
  return `${majors.slice(0, -1).join(', ')} or ${majors.at(-1)}`;
}

/** package.json's `engines.node` for these lines. */
export function enginesRange(): string {
  return NODE_LINES.map(({ lowest }) => `^${lowest}`).join(' || ');
}
