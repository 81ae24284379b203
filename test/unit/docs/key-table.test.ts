// The key tables of docs/keys.md are the keymap: one for the global keys and one per screen, each binding's
// keys and help as the help screen (`?`) shows them. When a binding changes, regenerate the table with
//   DPX_WRITE_DOCS=1 npx vitest run test/unit/docs/key-table.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyWords } from '../../../src/ui/nav/bindings.js';
import { GLOBAL_BINDINGS } from '../../../src/ui/global-keys.js';
import { SCREENS } from '../../../src/ui/registry.js';
import type { KeyTable } from '../../../src/ui/nav/screen.js';

const KEYS = join(import.meta.dirname, '..', '..', '..', 'docs', 'keys.md');
const START = '<!-- keys: generated from the keymap by test/unit/docs/key-table.test.ts -->';
const END = '<!-- keys: end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A table per screen, the global keys first: a row per binding, its keys and what they do. */
function keyTable(): string {
  const tables: KeyTable[] = [
    { title: 'everywhere', bindings: GLOBAL_BINDINGS },
    ...SCREENS.all().map((module) => ({ title: module.title, bindings: module.bindings })),
  ];
  const sections = tables.map(({ title, bindings }) =>
    [
      `### ${title}`,
      '',
      '| keys | does |',
      '|---|---|',
      ...bindings.map((binding) => `| \`${cell(keyWords(binding.keys))}\` | ${cell(binding.help)} |`),
    ].join('\n'),
  );
  return [START, ...sections, END].join('\n\n');
}

describe('the key table of docs/keys.md', () => {
  it('is the one the keymap gives', () => {
    const doc = readFileSync(KEYS, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `docs/keys.md has no ${START} … ${END} section`).toBeGreaterThan(-1);
    const shown = doc.slice(start, end + END.length);
    const generated = keyTable();
    if (shown !== generated && process.env['DPX_WRITE_DOCS'] === '1')
      writeFileSync(KEYS, doc.replace(shown, generated));
    else expect(shown, 'the key table is stale: regenerate it (see the top of this test)').toBe(generated);
  });
});
