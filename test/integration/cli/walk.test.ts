// --all over 10,000+ tasks, in-process: every record once, and the output streams page by page.
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { useDemo } from '../../helpers/demo.js';
import { configPath, dpx, tokensShown } from './harness.js';

const demo = useDemo({ scale: 10 });
const env = () => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  DPX_CONFIG: configPath,
});

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

describe('dpx list --all at demo scale 10', () => {
  it('ndjson: as many lines as total_count, every id once', async () => {
    const first = await dpx(['list', 'tasks', '--output', 'json', '--page-size', '1'], { env: env() });
    const total = (JSON.parse(first.stdout) as { total_count: number }).total_count;
    expect(total).toBeGreaterThanOrEqual(10_000);

    const { code, stdout, stderr } = await dpx(['list', 'tasks', '--all', '--page-size', '100', '--output', 'ndjson'], {
      env: env(),
    });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const ids = stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('streams: the first record is written when only the first page has been fetched', async () => {
    const requestsAtFirstWrite: number[] = [];
    const start = demo.region.requestCount();
    let lines = 0;
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (lines === 0) requestsAtFirstWrite.push(demo.region.requestCount() - start);
        lines += chunk.toString().split('\n').length - 1;
        callback();
      },
    });
    const stderr = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const code = await runCli(['list', 'tasks', '--all', '--page-size', '100', '--output', 'ndjson'], {
      stdout,
      stderr,
      env: env(),
    });
    expect(code).toBe(0);
    const pages = demo.region.requestCount() - start - 1;
    expect(pages).toBeGreaterThanOrEqual(100);
    // The index and the first page, nothing more, had been asked for when the first line went out.
    expect(requestsAtFirstWrite).toEqual([2]);
    expect(lines).toBeGreaterThanOrEqual(10_000);
  });

  it('progress goes to stderr on a terminal only, ending with nothing left on the line', async () => {
    const piped = await dpx(
      ['list', 'tasks', '--all', '--page-size', '100', '--max-items', '3000', '--output', 'ndjson'],
      { env: env() },
    );
    expect(piped.stderr).toBe('');
    const onTerminal = await dpx(
      ['list', 'tasks', '--all', '--page-size', '100', '--max-items', '3000', '--output', 'ndjson'],
      { env: env(), stderrTTY: true },
    );
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout.trimEnd().split('\n')).toHaveLength(3000);
    // The first page always draws; the totals are the server's (100 per page of 10,000+ tasks).
    expect(onTerminal.stderr).toMatch(/page 1\/1\d\d · 100 of 10,\d{3} items/);
    expect(onTerminal.stderr.endsWith('\r\x1b[2K')).toBe(true);
  });
});
