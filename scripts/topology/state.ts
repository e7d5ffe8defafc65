import fs from 'node:fs';
import path from 'node:path';
import type { LaunchSpec } from './processes';

export type ComponentKind = 'primary' | 'replica' | 'pgbouncer' | 'instance' | 'haproxy';

/** How to tell that a component serves: a SQL round trip, or an HTTP 200 on a URL. */
export type ReadinessCheck =
  | { readonly type: 'sql'; readonly url: string; readonly sql: string }
  | { readonly type: 'http'; readonly url: string };

export interface Component {
  readonly kind: ComponentKind;
  pid: number;
  readonly port: number;
  readonly launch: LaunchSpec;
  readonly ready: ReadinessCheck;
  /** The signal that stops it cleanly (PostgreSQL: SIGINT, a fast shutdown). */
  readonly stopSignal: NodeJS.Signals;
}

/** What `up` started, kept in state.json so that `status` and `down` find it (it holds passwords: 0600). */
export interface TopologyState {
  readonly stateDir: string;
  /** Files the postgres user must reach (data, PgBouncer's config), directly under the OS temp dir. */
  readonly postgresDir: string;
  readonly lbUrl: string;
  /** Connection URLs, for tests and operators: the service's (through PgBouncer) and direct ones. */
  readonly urls: {
    readonly app: string;
    readonly appReplica: string;
    readonly primaryDirect: string;
    readonly replicaDirect: string;
    readonly superuser: string;
  };
  /** In start order; `down` stops them in reverse. */
  readonly components: Component[];
}

const stateFile = (stateDir: string) => path.join(stateDir, 'state.json');

export function saveState(state: TopologyState): void {
  fs.writeFileSync(stateFile(state.stateDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function loadState(stateDir: string): TopologyState | null {
  try {
    return JSON.parse(fs.readFileSync(stateFile(stateDir), 'utf8')) as TopologyState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** `<kind> <pid> <port>`, the line `up` and `status` print for each component. */
export function describeComponent(component: Component): string {
  return `${component.kind} ${component.pid} ${component.port}`;
}
