import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { configPath } from './harness.js';

describe('dpx demo', () => {
  it('serves until interrupted, printing base URLs that answer', async () => {
    let printed = '';
    let announce: () => void = () => undefined;
    const announced = new Promise<void>((resolve) => {
      announce = resolve;
    });
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        printed += chunk.toString();
        if (printed.includes('Ctrl+C')) announce();
        callback();
      },
    });
    const stderr = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const interrupt = new AbortController();
    const running = runCli(
      ['demo', '--port', '0', '--seed', '7', '--tenants', '9', '--link-header-paging', 'audit-trails'],
      { stdout, stderr, env: { DPX_CONFIG: configPath }, signal: interrupt.signal },
    );
    await announced;
    const baseUrl = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1];
    expect(baseUrl).toBeDefined();
    expect(printed).toMatch(/^ {2}units {11}9 tenants, \d+ units in all; e\.g\. [0-9a-f-]{36} \(.+\)$/m);
    expect((await fetch(`${baseUrl}/`)).status).toBe(401);
    expect(printed).toMatch(/^dpx demo control plane \(.*audit-trails paged by Link header\)$/m);
    const token = /personal token\s+(\S+)/.exec(printed)?.[1];
    const page = await fetch(`${baseUrl}/audit-trails?limit=5`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.headers.get('link')).toMatch(/; rel="next"/);
    expect(((await page.json()) as Record<string, unknown>)['_links']).toBeUndefined();
    interrupt.abort();
    expect(await running).toBe(0);
    await expect(fetch(`${baseUrl}/`)).rejects.toThrow();
  });

  it('refuses a bad --scale or --tenants with exit 2', async () => {
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    expect(
      await runCli(['demo', '--scale', 'lots'], { stdout: sink, stderr: sink, env: { DPX_CONFIG: configPath } }),
    ).toBe(2);
    expect(
      await runCli(['demo', '--tenants', '2.5'], { stdout: sink, stderr: sink, env: { DPX_CONFIG: configPath } }),
    ).toBe(2);
  });

  it('refuses --link-header-paging of a list the demo does not have with exit 2, naming the lists it has', async () => {
    let errors = '';
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const stderr = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        errors += chunk.toString();
        callback();
      },
    });
    expect(
      await runCli(['demo', '--port', '0', '--link-header-paging', 'audit-trails,gadgets'], {
        stdout: sink,
        stderr,
        env: { DPX_CONFIG: configPath },
      }),
    ).toBe(2);
    expect(errors).toContain('the demo has no list gadgets');
    expect(errors).toContain('audit-trails');
  });
});
