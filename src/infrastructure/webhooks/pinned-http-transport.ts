import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from './public-address';

/** Every address a name resolves to now. */
export type ResolveAll = (hostname: string) => Promise<readonly LookupAddress[]>;

const resolveAllWithDns: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** One attempt to deliver: the exact body, its signed headers, and how long it may take. */
export interface DeliveryAttempt {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** How an attempt ended; a redirect is an answer like any other (never followed). */
export type DeliveryOutcome =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** A destination whose address is not public (or that resolves to one), refused before connecting. */
class DestinationRefused extends Error {}

/**
 * POSTs webhook deliveries over node:http(s), connecting only to addresses it checked itself:
 * the name is resolved at connection time by its own lookup, every address must be public
 * (unless private networks are allowed), and the connection goes to exactly those addresses.
 * A name that answered a public address when the subscription was made and a private one now
 * is refused now. An address written in the URL is checked before anything is sent.
 */
export class PinnedHttpTransport {
  constructor(
    private readonly allowPrivateNetworks = false,
    private readonly resolveAll: ResolveAll = resolveAllWithDns,
  ) {}

  /** Null when the URL may be delivered to now; else why not (also used when a subscription is made). */
  async refusalOf(url: string): Promise<string | null> {
    try {
      await this.allowedAddresses(new URL(url).hostname);
      return null;
    } catch (error) {
      if (error instanceof DestinationRefused) return error.message;
      return `the host does not resolve: ${(error as Error).message}`;
    }
  }

  deliver(attempt: DeliveryAttempt): Promise<DeliveryOutcome> {
    const url = new URL(attempt.url);
    const client = url.protocol === 'https:' ? https : http;
    // An address in the URL never reaches `lookup`: it is checked here, before any connection.
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal) && !this.mayConnectTo(literal)) {
      return Promise.resolve({ kind: 'refused', reason: `${literal} is not a public address` });
    }
    return new Promise((resolve) => {
      const request = client.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...attempt.headers },
        agent: false,
        signal: AbortSignal.timeout(attempt.timeoutMs),
        lookup: (hostname, options, callback) => {
          this.allowedAddresses(hostname).then(
            (addresses) => {
              if (options.all) return callback(null, [...addresses]);
              const [first] = addresses as [LookupAddress];
              callback(null, first.address, first.family);
            },
            (error: Error) => callback(error, ''),
          );
        },
      });
      request.on('response', (response) => {
        // Only the status counts; the body is drained, never kept.
        response.resume();
        response.on('end', () => resolve({ kind: 'answered', status: response.statusCode ?? 0 }));
        response.on('error', (error) => resolve({ kind: 'failed', reason: error.message }));
      });
      request.on('error', (error) => {
        if (error instanceof DestinationRefused) resolve({ kind: 'refused', reason: error.message });
        else if (error.name === 'TimeoutError' || error.name === 'AbortError')
          resolve({ kind: 'failed', reason: `no answer within ${attempt.timeoutMs} ms` });
        else resolve({ kind: 'failed', reason: error.message });
      });
      request.end(attempt.body);
    });
  }

  private async allowedAddresses(hostname: string): Promise<readonly LookupAddress[]> {
    const literal = hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(literal);
    const addresses = family === 0 ? await this.resolveAll(literal) : [{ address: literal, family }];
    const refused = addresses.find(({ address }) => !this.mayConnectTo(address));
    if (refused && family !== 0) throw new DestinationRefused(`${literal} is not a public address`);
    if (refused) throw new DestinationRefused(`${hostname} resolves to ${refused.address}, not a public address`);
    if (addresses.length === 0) throw new DestinationRefused(`${hostname} resolves to no address`);
    return addresses;
  }

  private mayConnectTo(address: string): boolean {
    return this.allowPrivateNetworks || isPublicAddress(address);
  }
}
