// NO_PROXY as curl reads it (lib/proxy.c, proxy_check_noproxy): a list split on commas only, each entry
// trimmed of blanks; an entry followed by blanks and then something other than a comma ends the list, as
// in curl. A host name matches an entry that is that name or one of its domains (one leading dot, `*.` and
// a trailing dot change nothing); an IP address matches only an address entry, or a CIDR range
// (`127.0.0.0/8`, `::1/128`), never by its text's tail. dpx also reads `host:port` and `[v6]:port`
// entries, which then match that port only, and a `*` entry anywhere as every host.
import { isIP } from 'node:net';

/** Whether NO_PROXY's list sends `hostname` (as URL gives it: IPv6 in brackets) on `port` around the proxy. */
export function bypassed(hostname: string, port: number, noProxy: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(bare);
  const host = family === 0 ? bare.replace(/\.$/, '') : bare;
  if (host === '') return false;
  for (const entry of entries(noProxy.toLowerCase())) {
    if (entry === '*') return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (family === 0 ? hostMatches(name, host) : addressMatches(name, host)) return true;
  }
  return false;
}

/** The list's entries, as curl walks it: blanks around an entry are passed, and blanks not followed by a comma end it. */
function entries(list: string): string[] {
  const found: string[] = [];
  const walker = /[ \t]*([^ \t,]*)[ \t]*(,+|$)?/y;
  for (;;) {
    const match = walker.exec(list);
    if (match === null) break;
    if (match[1]) found.push(match[1]);
    if (match[2] === undefined || match[2] === '') break;
  }
  return found;
}

/** `example.com` matches example.com and www.example.com, not nonexample.com. */
function hostMatches(entry: string, host: string): boolean {
  const domain = entry.replace(/\.$/, '').replace(/^(\*\.|\.)/, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/** An address entry, with or without a `/bits` suffix of digits alone. */
function addressMatches(entry: string, address: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return inCidr(address, entry, 0);
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && inCidr(address, entry.slice(0, slash), Number(bits));
}

/**
 * Whether `address` lies in `network`/`bits`, both of one IP family, as curl's cidr4_match and cidr6_match
 * decide: 0 bits means the whole address (not every address), more bits than the family has match nothing.
 */
export function inCidr(address: string, network: string, bits: number): boolean {
  const family = isIP(address);
  if (family === 0 || isIP(network) !== family) return false;
  const width = family === 4 ? 32 : 128;
  if (bits > width) return false;
  const a = family === 4 ? ipv4Bytes(address) : ipv6Bytes(address);
  const n = family === 4 ? ipv4Bytes(network) : ipv6Bytes(network);
  const prefix = bits === 0 ? width : bits;
  for (let bit = 0; bit < prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, prefix - bit))) & 0xff;
    if (((a[bit / 8]! ^ n[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address that isIP accepted: `::` filled with zeros, a dotted IPv4 tail read as 4 bytes. */
function ipv6Bytes(address: string): number[] {
  const words = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((word) => {
          if (!word.includes('.')) return [Number.parseInt(word, 16)];
          const [a, b, c, d] = ipv4Bytes(word) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.replace(/%.*$/, '').split('::');
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [...front, ...Array.from({ length: 8 - front.length - back.length }, () => 0), ...back];
  return all.flatMap((word) => [word >> 8, word & 0xff]);
}

/** `host:port`, `[v6]:port`, a bare IPv6 address (its colons are not a port), or a name alone. */
function splitPort(entry: string): { name: string; entryPort: number | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed)
    return { name: bracketed[1]!, entryPort: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { name: withPort[1]!, entryPort: Number(withPort[2]) };
  return { name: entry, entryPort: undefined };
}
