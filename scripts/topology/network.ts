import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

/**
 * The database nodes' own network, when we are root and Linux network namespaces work: each
 * node in a namespace of its own, all joined by veth pairs to a bridge in a "hub" namespace,
 * and the root namespace (etcd, the database HAProxy) on the same bridge through one more veth.
 * The addresses (10.231.<k>.0/24) exist only on those veths; nothing is routed off the machine.
 * A partition is then a few iptables rules inside one node's namespace (cutNode), and the whole
 * network goes with its namespaces (removeNetwork).
 */
export interface NodeNetwork {
  /** `blog<k>`: the namespaces are `<prefix>-hub` and `<prefix>-n<i>`, the root veth `<prefix>r`. */
  readonly prefix: string;
  /** 10.231.<k>: the root namespace is .1, node i is .1i. */
  readonly subnet: string;
  readonly namespaces: readonly string[];
  readonly rootVeth: string;
}

const run = (args: readonly string[]) => execFileSync('ip', [...args], { stdio: 'pipe' }).toString();

/** The root namespace's address on the nodes' network. */
export const hostAddress = (network: NodeNetwork) => `${network.subnet}.1`;
/** Node `number`'s (1..9) address. */
export const nodeAddress = (network: NodeNetwork, number: number) => `${network.subnet}.1${number}`;
export const nodeNamespace = (network: NodeNetwork, number: number) => `${network.prefix}-n${number}`;

/** Whether we may build the network (root, `ip netns` and veth pairs work); else why not, in one line. */
export function networkUnavailableReason(): string | null {
  if (process.getuid?.() !== 0) return 'not root: the nodes share the loopback interface (no network namespaces)';
  const probe = `blogprobe${randomInt(1e6)}`;
  try {
    run(['netns', 'add', probe]);
    run(['-n', probe, 'link', 'add', 'a0', 'type', 'veth', 'peer', 'name', 'b0']);
    execFileSync('ip', ['netns', 'exec', probe, 'iptables', '-A', 'OUTPUT', '-d', '10.231.0.2', '-j', 'DROP'], {
      stdio: 'pipe',
    });
    return null;
  } catch (error) {
    return `network namespaces, veth pairs or iptables unavailable here (${(error as Error).message.split('\n')[0]})`;
  } finally {
    try {
      run(['netns', 'del', probe]);
    } catch {
      // never created
    }
  }
}

/** Creates the hub, `nodes` node namespaces and the root veth, on a /24 no route of the machine uses yet. */
export function createNetwork(nodes: number): NodeNetwork {
  const routes = run(['-4', 'route', 'show']);
  const used = new Set(
    run(['netns', 'list'])
      .split('\n')
      .map((line) => line.split(' ')[0]),
  );
  const free = Array.from({ length: 254 }, (_, k) => k + 1).filter(
    (k) => !routes.includes(`10.231.${k}.`) && !used.has(`blog${k}-hub`),
  );
  const k = free[randomInt(free.length)];
  if (k === undefined) throw new Error('no free 10.231.<k>.0/24 for the nodes');
  const prefix = `blog${k}`;
  const network: NodeNetwork = {
    prefix,
    subnet: `10.231.${k}`,
    namespaces: [`${prefix}-hub`, ...Array.from({ length: nodes }, (_, i) => `${prefix}-n${i + 1}`)],
    rootVeth: `${prefix}r`,
  };
  try {
    const hub = `${prefix}-hub`;
    run(['netns', 'add', hub]);
    run(['-n', hub, 'link', 'add', 'br0', 'type', 'bridge']);
    run(['-n', hub, 'link', 'set', 'br0', 'up']);
    run(['link', 'add', network.rootVeth, 'type', 'veth', 'peer', 'name', 'root', 'netns', hub]);
    run(['-n', hub, 'link', 'set', 'root', 'master', 'br0', 'up']);
    run(['addr', 'add', `${hostAddress(network)}/24`, 'dev', network.rootVeth]);
    run(['link', 'set', network.rootVeth, 'up']);
    for (let number = 1; number <= nodes; number++) {
      const namespace = nodeNamespace(network, number);
      run(['netns', 'add', namespace]);
      run(['-n', namespace, 'link', 'set', 'lo', 'up']);
      run(['link', 'add', 'eth0', 'netns', namespace, 'type', 'veth', 'peer', 'name', `n${number}`, 'netns', hub]);
      run(['-n', hub, 'link', 'set', `n${number}`, 'master', 'br0', 'up']);
      run(['-n', namespace, 'addr', 'add', `${nodeAddress(network, number)}/24`, 'dev', 'eth0']);
      run(['-n', namespace, 'link', 'set', 'eth0', 'up']);
    }
    return network;
  } catch (error) {
    removeNetwork(network);
    throw error;
  }
}

/** Deletes the namespaces (their veths, addresses and iptables rules go with them) and the root veth. */
export function removeNetwork(network: NodeNetwork): void {
  // The root veth first: deleting a namespace removes its devices (and their peers) asynchronously.
  if (run(['link', 'show']).includes(`${network.rootVeth}@`)) run(['link', 'del', network.rootVeth]);
  const existing = new Set(
    run(['netns', 'list'])
      .split('\n')
      .map((line) => line.split(' ')[0]),
  );
  for (const namespace of network.namespaces) if (existing.has(namespace)) run(['netns', 'del', namespace]);
}

/**
 * Cuts node `number` off from the other nodes and from etcd (`etcdPort` on the root namespace),
 * but not from the database HAProxy (so PgBouncer and the service still reach it): iptables
 * DROP rules inside its namespace, silent like a real partition. healNode removes them.
 */
export function cutNode(network: NodeNetwork, number: number, nodes: number, etcdPort: number): void {
  const iptables = (...args: string[]) =>
    execFileSync('ip', ['netns', 'exec', nodeNamespace(network, number), 'iptables', ...args], { stdio: 'pipe' });
  for (let other = 1; other <= nodes; other++) {
    if (other === number) continue;
    iptables('-A', 'OUTPUT', '-d', nodeAddress(network, other), '-j', 'DROP');
    iptables('-A', 'INPUT', '-s', nodeAddress(network, other), '-j', 'DROP');
  }
  iptables('-A', 'OUTPUT', '-d', hostAddress(network), '-p', 'tcp', '--dport', String(etcdPort), '-j', 'DROP');
  iptables('-A', 'INPUT', '-s', hostAddress(network), '-p', 'tcp', '--sport', String(etcdPort), '-j', 'DROP');
}

/**
 * Ends node `number`'s replication from the leader (node `leader`, PostgreSQL on `pgPort`) and
 * refuses its new tries, nothing else: it stays a running replica to Patroni, etcd and HAProxy.
 * REJECT with a reset, so its WAL receiver fails at once instead of waiting out a timeout;
 * the primary's end is for the caller to terminate. healNode removes the rule.
 */
export function cutReplication(network: NodeNetwork, number: number, leader: number, pgPort: number): void {
  execFileSync(
    'ip',
    [
      ...['netns', 'exec', nodeNamespace(network, number), 'iptables', '-A', 'OUTPUT'],
      ...['-d', nodeAddress(network, leader), '-p', 'tcp', '--dport', String(pgPort)],
      ...['-j', 'REJECT', '--reject-with', 'tcp-reset'],
    ],
    { stdio: 'pipe' },
  );
}

export function healNode(network: NodeNetwork, number: number): void {
  execFileSync('ip', ['netns', 'exec', nodeNamespace(network, number), 'iptables', '-F'], { stdio: 'pipe' });
}
