// Server text never drives the terminal: every command against a control plane whose keys, values, unit
// names, resource names and error bodies carry ESC/BEL/OSC 52/C1/bidi sequences prints them visible and
// inert, json and ndjson keep the exact data, and csv guards formulas.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../helpers/servers.js';
import {
  CLIPBOARD,
  HOSTILE,
  ITEM_KEY,
  OBEYED,
  startHostileText,
  TITLE,
  TITLED_RESOURCE,
  UNIT_ROOT,
} from '../../helpers/hostile-text.js';
import { dpx, type CliResult, type RunOptions } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

let server: TestServer;
beforeAll(async () => {
  server = await startHostileText();
});
afterAll(() => server.close());

function run(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  return dpx(argv, {
    ...options,
    env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'hostile-test-token', COLUMNS: '400', ...options.env },
  });
}

/** Both streams free of anything a terminal obeys (line feeds aside; csv's CRLF line ends too). */
function expectInert(result: CliResult, csv = false): void {
  expect(csv ? result.stdout.replace(/\r\n/g, '\n') : result.stdout).not.toMatch(OBEYED);
  expect(result.stderr).not.toMatch(OBEYED);
}

describe('server text on the terminal', () => {
  it('resources: a resource named with an escape sequence is shown with it visible', async () => {
    const result = await run(['resources']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain('notes␛]0;pwned␇');
  });

  it('list as a table: keys (the header) and values visible, on a terminal too', async () => {
    const result = await run(['list', 'items'], { stdoutTTY: true, columns: 400 });
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain('key␛]0;pwned␇␛]52;c;cHduZWQ=␇\\u009b31m␡\\u202etxt.exe');
    expect(result.stdout).toContain('value␛]0;pwned␇');
  });

  it('list as csv: visible, formulas guarded, numbers kept', async () => {
    const result = await run(['list', 'items', '-o', 'csv', '--csv-crlf']);
    expect(result.code).toBe(0);
    expectInert(result, true);
    expect(result.stdout).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(result.stdout).toContain(`"'@SUM(1)"`);
    expect(result.stdout.split('\r\n')[1]).toMatch(/,-5,/);
  });

  it('groups of a --group-by keep their exact values in ndjson, with C1 and bidi controls escaped', async () => {
    const result = await run(['list', 'items', '--group-by', 'name', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expectInert(result);
    const groups = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { key: { name: string } });
    expect(groups.map((group) => group.key.name)).toContain(`Item one${HOSTILE}`);
  });

  it('json and ndjson keep the exact data; on a terminal with C1, DEL and bidi controls escaped too', async () => {
    for (const format of ['json', 'ndjson']) {
      for (const stdoutTTY of [true, false]) {
        const result = await run(['list', 'items', '-o', format], { stdoutTTY });
        expect(result.code).toBe(0);
        if (stdoutTTY) expectInert(result);
        expect(result.stdout).not.toContain('\x1b');
        const first = (
          format === 'json'
            ? (JSON.parse(result.stdout) as { items: Record<string, unknown>[] }).items[0]
            : JSON.parse(result.stdout.split('\n')[0]!)
        ) as Record<string, unknown>;
        expect(first[ITEM_KEY]).toBe(`value${HOSTILE}`);
        expect(first['name']).toBe(`Item one${HOSTILE}`);
      }
    }
  });

  it('count: unit names and the values counted by are visible', async () => {
    const result = await run(['count', 'items', '--ou', 'all', '--by', 'status']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain('Global␛]0;pwned␇');
    expect(result.stdout).toContain('EMEA␛]52;c;cHduZWQ=␇');
    expect(result.stdout).toContain('ok␛]0;pwned␇');
  });

  it('a text/plain proxy error page reaches stderr visible', async () => {
    const result = await run(['list', 'broken']);
    expect(result.code).toBe(1);
    expectInert(result);
    expect(result.stderr).toContain('Bad gateway␛]0;pwned␇');
  });

  it("the errors envelope's codes and messages reach stderr visible", async () => {
    const result = await run(['call', 'items', 'get_item', '--var', 'item_id=nope']);
    expect(result.code).toBe(1);
    expectInert(result);
    expect(result.stderr).toContain(`[not_found␛]0;pwned␇]`);
  });

  it('x-ray: labels, keys and link names visible in the tree', async () => {
    const result = await run(['xray', 'items', 'i-1']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain('Item one␛]0;pwned␇');
  });

  it('diff: both values visible', async () => {
    const result = await run(['diff', 'items', 'i-1', '--versions', 'v1,v2']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain('changed␛]52;c;cHduZWQ=␇');
  });

  it('call: a record as json is the exact data', async () => {
    const result = await run(['call', 'items', 'get_item', '--var', 'item_id=i-1']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect((JSON.parse(result.stdout) as Record<string, unknown>)['note']).toBe(`changed${CLIPBOARD}`);
  });

  it('completion: unit descriptions visible, a candidate with a control character left out', async () => {
    const units = await run(['__complete', '--ou', '']);
    expectInert({ ...units, stdout: units.stdout.replace(/\t/g, ' ') });
    expect(units.stdout).toContain(`${UNIT_ROOT}\tGlobal␛]0;pwned␇`);
    const resources = await run(['__complete', 'list', '']);
    expect(resources.stdout.split('\n').map((line) => line.split('\t')[0])).toContain('items');
    expect(resources.stdout).not.toContain(TITLED_RESOURCE);
    expect(resources.stdout).not.toContain(TITLE);
  });

  it('a case file recorded from it: read offline and replayed, its text stays visible', async () => {
    const trail = join(temporaryFolder('dpx-hostile-'), 'case.har');
    expect((await run(['--trail', trail, 'list', 'items'])).code).toBe(0);
    const offline = await dpx(['--offline', trail, 'list', 'items'], { env: { COLUMNS: '400' } });
    expect(offline.code).toBe(0);
    expectInert(offline);
    expect(offline.stdout).toContain('value␛]0;pwned␇');
    const replayed = await run(['replay', trail]);
    expect(replayed.code).toBe(0);
    expectInert(replayed);
  });
});
