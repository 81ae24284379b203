// Which proxy a control plane goes through, by curl's documented rules (the examples are curl's own:
// "ample.com" matches ample.com, ample.com:80 and www.ample.com, not www.example.com or ample.com.org).
import { describe, expect, it } from 'vitest';
import { bypassed } from '../../../src/api/wire/no-proxy.js';
import { proxyFor, shownProxy } from '../../../src/api/wire/proxy.js';

describe('NO_PROXY', () => {
  it.each([
    ['ample.com', 'ample.com', 80, true],
    ['ample.com', 'www.ample.com', 443, true],
    ['ample.com', 'www.example.com', 80, false],
    ['ample.com', 'ample.com.org', 80, false],
    ['.ample.com', 'www.ample.com', 80, true],
    ['.ample.com', 'ample.com', 80, true],
    ['*.ample.com', 'api.ample.com', 80, true],
    ['*', 'anything.example', 8443, true],
    ['ample.com:8443', 'ample.com', 8443, true],
    ['ample.com:8443', 'ample.com', 443, false],
    ['localhost, 127.0.0.1', '127.0.0.1', 3128, true],
    // Split on commas only, as curl: blanks after an entry not followed by a comma end the list.
    ['localhost 10.0.0.1', '10.0.0.1', 80, false],
    ['localhost, 10.0.0.0/8', '10.1.2.3', 80, true],
    ['fd00::/8', '[fd12::1]', 443, true],
    ['127.0.0.0/8', '128.0.0.1', 80, false],
    ['::1', '[::1]', 80, true],
    ['[::1]:8080', '[::1]', 8080, true],
    ['[::1]:8080', '[::1]', 80, false],
    ['AMPLE.com', 'www.Ample.COM', 80, true],
    ['', 'ample.com', 80, false],
  ] as const)('%j for %s:%d → around the proxy: %s', (list, host, port, expected) => {
    expect(bypassed(host, port, list)).toBe(expected);
  });
});

describe('the proxy for a control plane', () => {
  it("takes the scheme's variable, the lower-case form first, then ALL_PROXY", () => {
    const environment = {
      https_proxy: 'http://lower:1',
      HTTPS_PROXY: 'http://upper:2',
      HTTP_PROXY: 'http://plain:3',
      ALL_PROXY: 'http://all:4',
    };
    expect(proxyFor('https://dpm.example.com', { environment })).toBe('http://lower:1');
    expect(proxyFor('http://dpm.example.com', { environment })).toBe('http://plain:3');
    expect(proxyFor('https://dpm.example.com', { environment: { ALL_PROXY: 'http://all:4' } })).toBe('http://all:4');
    expect(proxyFor('https://dpm.example.com', {})).toBeUndefined();
  });

  it('prefers one given on purpose, and "" means none; NO_PROXY applies to both', () => {
    const environment = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'internal.example' };
    expect(proxyFor('https://dpm.example.com', { proxy: 'http://flag:2', environment })).toBe('http://flag:2');
    expect(proxyFor('https://dpm.example.com', { proxy: '', environment })).toBeUndefined();
    expect(proxyFor('https://api.internal.example', { proxy: 'http://flag:2', environment })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http, as curl does', () => {
    expect(proxyFor('https://dpm.example.com', { environment: { HTTPS_PROXY: 'proxy.corp:3128' } })).toBe(
      'http://proxy.corp:3128',
    );
  });

  it('is shown without its credentials', () => {
    expect(shownProxy('http://user:secret@proxy.corp:3128')).toBe('http://proxy.corp:3128');
    expect(shownProxy('not a url')).not.toContain('not a url');
  });
});
