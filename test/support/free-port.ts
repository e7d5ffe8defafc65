import fs from 'node:fs';
import net from 'node:net';

/** A port nothing listens on right now, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const STABLE_PORTS_FROM = 20_000;
const handedOut = new Set<number>();

/**
 * A free loopback port below the kernel's ephemeral range, for a server that restarts on the
 * same port (the topology's PgBouncer, Patroni nodes, HAProxy). A port from freePort() is in that
 * range: while its server is down, an outgoing connection may take it as its source port, and
 * the restart then fails with "Address already in use" for as long as that connection lives.
 */
export async function freeStablePort(): Promise<number> {
  const ephemeralFrom = Number(readFileOr('/proc/sys/net/ipv4/ip_local_port_range', '32768').split(/\s+/)[0]);
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = STABLE_PORTS_FROM + Math.floor(Math.random() * (ephemeralFrom - STABLE_PORTS_FROM));
    if (handedOut.has(port)) continue;
    // Taken before the check, so that callers running at once never get the same port.
    handedOut.add(port);
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port from ${STABLE_PORTS_FROM} to ${ephemeralFrom - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function readFileOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
