import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { NotAllowedError } from '@platform/errors';

export class EgressBlockedError extends NotAllowedError {
  constructor(address: string, host: string) {
    super(
      'egress_blocked',
      `Refusing to connect to ${host} (${address}): private, loopback, link-local or reserved address`,
    );
  }
}

export interface EgressGuardOptions {
  /** CIDRs (`127.0.0.0/8`, `::1/128`) or single addresses that may be reached although private. */
  allow?: string[];
}

export interface EgressGuard {
  isAllowed(address: string): boolean;
  /** Throws EgressBlockedError for a forbidden address. */
  check(address: string, host?: string): void;
  /** A `dns.lookup` replacement for sockets: the check runs on the address actually connected to. */
  lookup: LookupFunction;
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** ::ffff:10.0.0.1 and friends are checked as the IPv4 address they carry. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hexMapped?.[1] && hexMapped[2]) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { address: bare, family: isIP(bare) === 6 ? 'ipv6' : 'ipv4' };
}

export function createEgressGuard(options: EgressGuardOptions = {}): EgressGuard {
  const allowed = new BlockList();
  for (const entry of options.allow ?? []) {
    const [net, bits] = entry.split('/');
    if (!net || isIP(net) === 0) throw new Error(`EGRESS_ALLOW entry ${entry} is not an address or CIDR`);
    const family = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) allowed.addAddress(net, family);
    else allowed.addSubnet(net, Number(bits), family);
  }

  function isAllowed(raw: string): boolean {
    const { address, family } = normalise(raw);
    if (isIP(address) === 0) return false;
    if (allowed.check(address, family)) return true;
    return !blocked.check(address, family);
  }

  function check(address: string, host = address) {
    if (!isAllowed(address)) throw new EgressBlockedError(address, host);
  }

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      // Every answer must be allowed: otherwise a name with one public and one private record could be used.
      const bad = list.find((a) => !isAllowed(a.address));
      if (bad || list.length === 0) {
        return callback(new EgressBlockedError(bad?.address ?? 'none', hostname), '', 4);
      }
      if (lookupOptions.all) return callback(null, list);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };

  return { isAllowed, check, lookup };
}
