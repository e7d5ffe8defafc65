import fs from 'node:fs';

/**
 * Summarizes a V8 CPU profile (node --cpu-prof) by where the time is spent: self time per
 * package (or per file of this project) and the hottest functions:
 * `npm run bench -- profile-summary <file.cpuprofile> [--top N]`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package>, node:internal, this project's file, or the V8 pseudo-frames. */
export function ownerOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : `(${functionName || 'native'})`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1] as string;
  if (url.startsWith('node:')) return 'node: core';
  const project = /\/(dist\/(?:src|bench)\/.*)$/.exec(url);
  return project ? (project[1] as string) : url;
}

export function summarizeProfile(profile: Profile, top: number): string {
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => {
    selfMicros.set(nodeId, (selfMicros.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    total += micros;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url, functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + micros);
    const name = `${functionName || '(anonymous)'} ${owner}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const busy = total - (byOwner.get('(idle)') ?? 0);
  const lines = (map: Map<string, number>) =>
    [...map.entries()]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${name}`);
  return [
    `busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled; shares of busy time`,
    '',
    'by package or file:',
    ...lines(byOwner),
    '',
    'by function (self time):',
    ...lines(byFunction),
  ].join('\n');
}

export function printProfileSummary(file: string, top: number): void {
  console.log(summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, top));
}
