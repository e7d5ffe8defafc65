import { isPublicAddress } from '../../../src/infrastructure/webhooks/public-address';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local: the cloud metadata address'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fd00::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible, deprecated'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2001::1', 'Teredo'],
    ['example.com', 'a name, not an address'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([['8.8.8.8'], ['1.1.1.1'], ['93.184.215.14'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])(
    'accepts the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
