import { ownerOf } from './profile-summary';

/** A V8 CPU profile (node --cpu-prof), as far as the attribution reads it. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Which component a frame's owner (package, or file of this project or of the stack floor)
 * belongs to, first match wins; null: a frame that takes its caller's component (Node's core,
 * native code). Issue 39's components.
 */
const COMPONENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^pino|request-logging|observability\/logger/, 'logging'],
  [/^prom-client|http-metrics|observability\/metrics/, 'metrics'],
  [/^@opentelemetry|tracing|traced-sql-connection/, 'tracing'],
  [/^helmet|request-frame|request-id|middleware\/security/, 'request id and headers'],
  [/storage-deadline/, 'deadline timers'],
  [/replica-routing|replica-read|primary-write-gate|sync-commit/, 'replica routing and write gate'],
  [/^zod|\/validation/, 'validation'],
  [/authenticate|failed-authentications|\/security\/|token/, 'authentication'],
  [/presenters?\.js|entity-tag|articleJsonText/, 'presenter'],
  [
    /^(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|typeorm)$|\/persistence\/|infrastructure\/(typeorm|pg)\//,
    'repository and TypeORM',
  ],
  [/\/application\/|\/domain\//, 'use case and domain'],
  [/\/composition\//, 'composition'],
  [/controllers?\//, 'controller'],
  [
    /^(express|router|body-parser|raw-body|content-type|type-is|parseurl|path-to-regexp|mime-types|mime-db|finalhandler|on-finished|encodeurl|send|qs|iconv-lite|media-typer|statuses|vary)$|\/interfaces\/http\//,
    'HTTP and routing',
  ],
];

const STARTUP =
  /^(wrapSafe|compileFunction|compileForInternalLoader|compileSourceTextModule|Module\._compile|Module\._load|require)$/;

/**
 * CPU microseconds per answer by component: each sample goes to the component of the nearest
 * frame, from the sampled one up, that belongs to one; samples under module loading are the
 * start's, and left out. What has no such frame is Node's HTTP server and sockets (the parser,
 * socket reads) or the collector.
 */
export function componentsOf(profile: CpuProfile, answers: number): Array<[string, number]> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const componentOfNode = new Map<number, string | null>();
  const componentOf = (id: number): string | null => {
    if (componentOfNode.has(id)) return componentOfNode.get(id) ?? null;
    const { functionName, url } = byId.get(id)?.callFrame ?? { functionName: '', url: '' };
    let component: string | null = null;
    if (functionName === '(idle)' || functionName === '(program)') component = 'idle';
    else if (STARTUP.test(functionName)) component = 'start';
    else if (functionName === '(garbage collector)') component = 'garbage collector';
    else if (url !== '') {
      const owner = ownerOf(url, functionName);
      component = COMPONENTS.find(([pattern]) => pattern.test(owner))?.[1] ?? null;
    }
    const up = parent.get(id);
    // An ancestor under module loading makes the sample the start's, whatever the frame.
    const above = up === undefined ? null : componentOf(up);
    const resolved = above === 'start' ? 'start' : (component ?? above);
    componentOfNode.set(id, resolved);
    return resolved;
  };
  const micros = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const component = componentOf(id) ?? "Node's HTTP server and sockets";
    micros.set(component, (micros.get(component) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  micros.delete('idle');
  micros.delete('start');
  return [...micros.entries()]
    .map(([component, total]): [string, number] => [component, total / answers])
    .sort((a, b) => b[1] - a[1]);
}
