// curl's own NO_PROXY table (tests/unit/unit1614.c at curl-8_21_0, vendored as data in
// test/fixtures/curl-noproxy): every row holds for dpx's matcher and its CIDR check.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bypassed, inCidr } from '../../../src/api/wire/no-proxy.js';

interface Table {
  cidr4: { address: string; network: string; bits: number; match: boolean }[];
  cidr6: { address: string; network: string; bits: number; match: boolean }[];
  noproxy: { host: string; noproxy: string; match: boolean }[];
}

const table = JSON.parse(
  readFileSync(new URL('../../fixtures/curl-noproxy/unit1614.json', import.meta.url), 'utf8'),
) as Table;

describe("curl's unit1614 table", () => {
  it('holds 95 rows', () => {
    expect(table.cidr4.length + table.cidr6.length + table.noproxy.length).toBe(95);
  });

  it.each([...table.cidr4, ...table.cidr6])(
    '$address in $network/$bits: $match',
    ({ address, network, bits, match }) => {
      expect(inCidr(address, network, bits)).toBe(match);
    },
  );

  // curl is given the host as a name or a bare address; a URL gives dpx an IPv6 host in brackets.
  it.each(table.noproxy)('$host in "$noproxy": $match', ({ host, noproxy, match }) => {
    const hostname = host.includes(':') ? `[${host}]` : host;
    expect(bypassed(hostname, 80, noproxy)).toBe(match);
  });
});
