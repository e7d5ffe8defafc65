import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const IPV4_COMPATIBLE = ipaddr.IPv6.parse('::');

/**
 * Whether a webhook may connect to this IP address: only public unicast ones. Loopback, private
 * (RFC 1918, fc00::/7), link-local (169.254.0.0/16 with the cloud metadata address, fe80::/10),
 * unspecified, carrier-grade NAT, multicast, broadcast, documentation and benchmarking ranges,
 * and addresses that embed an IPv4 one (IPv4-compatible, 6to4, Teredo, NAT64) are refused; an
 * IPv4-mapped IPv6 address is judged as its IPv4 address. Anything else is refused too.
 */
export function isPublicAddress(text: string): boolean {
  const canonical = canonicalAddress(text);
  if (canonical === null) return false;
  const address = ipaddr.process(canonical);
  // ipaddr.js calls the deprecated IPv4-compatible form (::/96) unicast; it is not.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(IPV4_COMPATIBLE, 96)) return false;
  return address.range() === 'unicast';
}

/**
 * The address as Node's URL parser writes it (IPv6 compressed, embedded IPv4 in hex), or null for
 * anything that is not an IP address. ipaddr.js alone would read `::a.b.c.d` as IPv4-mapped.
 */
function canonicalAddress(text: string): string | null {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6 || !URL.canParse(`http://[${text}]/`)) return null;
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}
