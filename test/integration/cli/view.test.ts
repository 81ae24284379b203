import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { configPath, dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const viewFile = (name: string) => join(dirname(configPath), 'views', `${name}.json`);
const FILTER = '{"status":{"$eq":"failed"}}';

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

async function json(argv: string[]): Promise<{ items: Record<string, unknown>[] }> {
  const { code, stdout, stderr } = await dpx(argv, { env: env() });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as { items: Record<string, unknown>[] };
}

describe('dpx view', () => {
  it('saves a command line as typed, in a readable file that holds no token', async () => {
    const saved = await dpx(
      ['view', 'save', 'failed', '--', 'list', 'tasks', '--filter', FILTER, '--page-size', '4', '-o', 'json'],
      { env: env() },
    );
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('saved view failed');
    const text = readFileSync(viewFile('failed'), 'utf8');
    const file = JSON.parse(text) as { dpxView: number; name: string; argv: string[] };
    expect(file).toMatchObject({
      dpxView: 1,
      name: 'failed',
      argv: ['list', 'tasks', '--filter', FILTER, '--page-size', '4', '-o', 'json'],
    });
    for (const token of Object.values(demo.region.tokens)) expect(text).not.toContain(token);
  });

  it('lists and shows what was saved', async () => {
    const listed = await dpx(['view', 'list', '-o', 'json'], { env: env() });
    expect(listed.code).toBe(0);
    const views = JSON.parse(listed.stdout) as { name: string; argv: string[] }[];
    expect(views.find((view) => view.name === 'failed')?.argv).toContain(FILTER);
    const shown = await dpx(['view', 'show', 'failed'], { env: env() });
    expect(shown.stdout).toBe(`dpx list tasks --filter '${FILTER}' --page-size 4 -o json\n`);
  });

  it('runs to the same answer as the command typed out', async () => {
    const direct = await json(['list', 'tasks', '--filter', FILTER, '--page-size', '4', '-o', 'json']);
    const viaView = await json(['view', 'run', 'failed']);
    expect(viaView.items.map((item) => item['id'])).toEqual(direct.items.map((item) => item['id']));
    expect(viaView.items.every((item) => item['status'] === 'failed')).toBe(true);
  });

  it('takes --ou and -o from the run in place of the saved ones', async () => {
    const units = await json(['list', 'organizational-units', '--page-size', '50', '-o', 'json']);
    const unit = String(units.items.find((item) => item['parent_id'])?.['id']);
    const direct = await json(['list', 'tasks', '--filter', FILTER, '--page-size', '4', '--ou', unit, '-o', 'json']);
    const { code, stdout } = await dpx(['view', 'run', 'failed', '--ou', unit, '-o', 'ndjson'], { env: env() });
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((item) => item['id'])).toEqual(direct.items.map((item) => item['id']));
    const unscoped = await json(['view', 'run', 'failed']);
    expect(unscoped.items.map((item) => item['id'])).not.toEqual(direct.items.map((item) => item['id']));
  });

  it('runs a view file a colleague wrote by hand', async () => {
    mkdirSync(dirname(viewFile('by-hand')), { recursive: true });
    writeFileSync(
      viewFile('by-hand'),
      JSON.stringify({ dpxView: 1, name: 'by-hand', argv: ['resources', '-o', 'json'] }),
    );
    const { code, stdout } = await dpx(['view', 'run', 'by-hand'], { env: env() });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { name: string }[]).length).toBeGreaterThan(3);
  });

  it('keeps a relative window relative: the same view run later asks for a later window', async () => {
    expect(
      (await dpx(['view', 'save', 'recent', '--', 'count', 'tasks', '--since', '24h', '-o', 'json'], { env: env() }))
        .code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(viewFile('recent'), 'utf8')).argv).toEqual([
      'count',
      'tasks',
      '--since',
      '24h',
      '-o',
      'json',
    ]);
    const first = await dpx(['view', 'run', 'recent'], { env: env() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await dpx(['view', 'run', 'recent'], { env: env() });
    expect(first.code).toBe(0);
    const since = (text: string) => Date.parse(text.match(/≥ (\S+Z)/)![1]!);
    expect(since(second.stderr)).toBeGreaterThan(since(first.stderr));
  });

  it("shows a colleague's view with nothing in it a terminal would obey", async () => {
    writeFileSync(
      viewFile('hostile'),
      JSON.stringify({
        dpxView: 1,
        name: 'hostile',
        argv: ['list', 'tasks', '--filter', '{"name":"\u001b]52;c;cHduZWQ=\u0007"}'],
      }),
    );
    const shown = await dpx(['view', 'show', 'hostile'], { env: env() });
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(shown.stdout).toContain('␛]52;c;cHduZWQ=␇');
    const listed = await dpx(['view', 'list'], { env: env(), columns: 200 });
    expect(listed.stdout).not.toContain('\u001b');
  });

  it('refuses a malformed view and one from a newer dpx with a clear error', async () => {
    writeFileSync(viewFile('broken'), '{"dpxView": 1, "argv": ');
    const broken = await dpx(['view', 'run', 'broken'], { env: env() });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/view file .*broken\.json is not JSON/);
    writeFileSync(viewFile('future'), JSON.stringify({ dpxView: 2, name: 'future', argv: ['resources'] }));
    const future = await dpx(['view', 'run', 'future'], { env: env() });
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('saved by a newer dpx');
    const listed = await dpx(['view', 'list', '-o', 'json'], { env: env() });
    expect(listed.code).toBe(1);
    expect(
      (JSON.parse(listed.stdout) as { name: string; problem?: string }[])
        .filter((view) => view.problem)
        .map((view) => view.name)
        .sort(),
    ).toEqual(['broken', 'future']);
  });

  it('refuses to save what dpx would not run, or a view of a view', async () => {
    const typo = await dpx(['view', 'save', 'bad', '--', 'list', 'tasks', '--fitler', '{}'], { env: env() });
    expect(typo.code).toBe(2);
    const nested = await dpx(['view', 'save', 'loop', '--', 'view', 'run', 'failed'], { env: env() });
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('a view of `dpx view` is not kept');
    const unknown = await dpx(['view', 'run', 'nosuch'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('saved views: ');
  });
});
