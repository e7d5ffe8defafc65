import fs from 'node:fs';
import path from 'node:path';
import type { NodeNetwork } from './network';
import type { Passwords } from './postgres';
import type { LaunchSpec } from './processes';

export type ComponentKind = 'etcd' | 'patroni' | 'haproxy-db' | 'pgbouncer' | 'instance' | 'haproxy';

/** One PostgreSQL node: its Patroni (the component's process) and the postmaster Patroni runs. */
export interface DatabaseNode {
  /** node1, node2, node3: Patroni's member name. */
  readonly name: string;
  readonly number: number;
  /** Where its PostgreSQL and its REST API listen: 127.0.0.1, or its own address in its namespace. */
  readonly host: string;
  readonly restPort: number;
  readonly pgPort: number;
  readonly dataDir: string;
  /** Its network namespace, when the nodes have their own network. */
  readonly namespace?: string;
}

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
  /** For `patroni` components: the node it runs. */
  readonly node?: DatabaseNode;
}

/** What `up` started, kept in state.json so that `status` and `down` find it (it holds passwords: 0600). */
export interface TopologyState {
  readonly stateDir: string;
  /** Files the postgres user must reach (data, PgBouncer's config), directly under the OS temp dir. */
  readonly postgresDir: string;
  readonly lbUrl: string;
  /** The nodes' own network (namespaces and veths), absent when they share the loopback. */
  readonly network?: NodeNetwork;
  /** etcd's client port, on 127.0.0.1 (and on the nodes' network). */
  readonly etcdPort: number;
  /** Connection URLs, for tests and operators: the service's (through PgBouncer) and direct ones. */
  readonly urls: {
    readonly app: string;
    readonly appReplica: string;
    /** Through the database HAProxy, to whichever node is primary now. */
    readonly primaryDirect: string;
    /** Through the database HAProxy, to the replicas. */
    readonly replicaDirect: string;
    /** The postgres superuser, through the database HAProxy to the primary. */
    readonly superuser: string;
  };
  /** The roles' passwords made at `up`: a restore writes the nodes' Patroni configs again with them. */
  readonly passwords: Passwords;
  /** In start order; `down` stops them in reverse. */
  readonly components: Component[];
}

/** The Patroni-run nodes of a topology. */
export const nodesOf = (state: TopologyState): DatabaseNode[] =>
  state.components.flatMap((component) => (component.node ? [component.node] : []));

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

/** `<kind> <pid> <port>`, the line `up` and `status` print for each component (Patroni: `patroni <pid> <rest_port> <pg_port>`). */
export function describeComponent(component: Component): string {
  if (component.node) return `patroni ${component.pid} ${component.node.restPort} ${component.node.pgPort}`;
  return `${component.kind} ${component.pid} ${component.port}`;
}
