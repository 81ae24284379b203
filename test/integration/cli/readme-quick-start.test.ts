// The README's quick start, run as written: each of its shell blocks is run by bash with `dpx` on the PATH
// (the built bundle), and what it prints is held against the output block under it: as many lines, each
// beginning with the same word (a resource, an id, a unit, a branch of the tree). The demo's data comes from
// its seed, so the ids are the same on every start; live tasks may move a count by one, which the first
// words do not see.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useDocShell } from '../../helpers/doc-shell.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const shell = useDocShell('dpx-readme-quick-');

interface Example {
  command: string;
  shown: string[];
}

/** Each shell block of the quick start and the output block that follows it. */
async function examples(): Promise<Example[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([^\n]*)\n```\s*\n```\n([\s\S]*?)```/g)].map((match) => ({
    command: match[1]!.replace(/\s+#.*$/, ''),
    shown: match[2]!.replace(/\n$/, '').split('\n'),
  }));
}

const firstWord = (line: string) => line.trim().split(/\s+/)[0] ?? '';

describe("the README's quick start", () => {
  it('prints what the README shows', async () => {
    const shown = await examples();
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const { command, shown: lines } of shown) {
      const result = await shell.run(command);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      const printed = result.stdout.replace(/\n$/, '').split('\n');
      expect(printed.map(firstWord), command).toEqual(lines.map(firstWord));
    }
  });
});
