// The README's key table is the keymap: one row for the global keys and one per screen, each binding's
// keys and help as the help screen (`?`) shows them. When a binding changes, regenerate the table with
//   DPX_WRITE_README=1 npx vitest run test/unit/docs/readme-keys.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyWords } from '../../../src/ui/nav/bindings.js';
import { GLOBAL_BINDINGS } from '../../../src/ui/global-keys.js';
import { SCREENS } from '../../../src/ui/registry.js';
import type { KeyTable } from '../../../src/ui/nav/screen.js';

const README = join(import.meta.dirname, '..', '..', '..', 'README.md');
const START = '<!-- keys: generated from the keymap by test/unit/docs/readme-keys.test.ts -->';
const END = '<!-- keys: end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function keyTable(): string {
  const tables: KeyTable[] = [
    { title: 'everywhere', bindings: GLOBAL_BINDINGS },
    ...SCREENS.all().map((module) => ({ title: module.title, bindings: module.bindings })),
  ];
  const rows = tables.map(
    ({ title, bindings }) =>
      `| ${cell(title)} | ${bindings.map((binding) => `\`${keyWords(binding.keys)}\` ${cell(binding.help)}`).join(' · ')} |`,
  );
  return [START, '| where | keys |', '|---|---|', ...rows, END].join('\n');
}

describe("the README's key table", () => {
  it('is the one the keymap gives', () => {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `README.md has no ${START} … ${END} section`).toBeGreaterThan(-1);
    const shown = readme.slice(start, end + END.length);
    const generated = keyTable();
    if (shown !== generated && process.env['DPX_WRITE_README'] === '1')
      writeFileSync(README, readme.replace(shown, generated));
    else expect(shown, 'the key table is stale: regenerate it (see the top of this test)').toBe(generated);
  });
});
