// The case-file workflow of docs/cases-and-reports.md, run as written: its first shell block is read and each line is
// run by bash against the demo, with `dpx` on the PATH and the ids the block names in the environment. Every line
// succeeds except the replay elsewhere with --exit-code, which exits 5; the offline lines send nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { useDocShell } from '../../helpers/doc-shell.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const UNIT = '12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2';
const OTHER_UNIT = 'd469d32e-85ba-4a77-9f25-23e39deb60fd';
const HEADER = 'x-service-organizationalunit-context';

const demo = useDemo();
const shell = useDocShell('dpx-readme-case-');

/** The first shell block of the case files guide, one command a line. */
async function workflow(): Promise<string[]> {
  const section = await readFile(join(root, 'docs', 'cases-and-reports.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

describe("the case files guide's workflow", () => {
  it('runs as written against the demo', async () => {
    const lines = await workflow();
    expect(lines.length).toBeGreaterThanOrEqual(8);
    const failed = await demoRequest(
      demo.region,
      `/tasks?limit=1&filter=${encodeURIComponent('{"status":{"$eq":"failed"}}')}`,
      { headers: { [HEADER]: UNIT } },
    );
    const task = (failed.body._embedded.items as { id: string }[])[0]!.id;
    const env = {
      ...shell.env(),
      DPX_BASE_URL: demo.region.baseUrl,
      DPX_TOKEN: demo.region.tokens.personal,
      UNIT,
      OTHER_UNIT,
      TASK: task,
    };
    for (const line of lines) {
      const before = demo.region.requestCount();
      const { code, stderr } = await shell.run(line, env);
      expect(code, `${line}\n${stderr}`).toBe(line.includes('--exit-code') ? 5 : 0);
      if (line.includes('--offline') || /^dpx case /.test(line)) expect(demo.region.requestCount(), line).toBe(before);
    }
    const replay = JSON.parse(await readFile(join(shell.dir, 'replay.json'), 'utf8')) as { requests: unknown[] };
    expect(replay.requests.length).toBeGreaterThan(0);
    const document = JSON.parse(await readFile(join(shell.dir, 'case-1234.har'), 'utf8')) as {
      log: { pages: unknown[] };
    };
    expect(document.log.pages).toHaveLength(lines.filter((line) => line.includes('--trail')).length);
  });
});
