// The complete config.json of docs/connect.md is one dpx reads, and it uses every key a profile has: when a
// profile key is added, the example (and the list under it) must show it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, PROFILE_KEYS } from '../../../src/config/profiles.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'connect.md');
const MARK = '<!-- config example: read by test/unit/docs/config-example.test.ts -->';

describe('the complete config.json of docs/connect.md', () => {
  it('is read by dpx, and names every profile key', async () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(MARK);
    const example = /```json\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf(MARK)))?.[1] ?? '';
    const path = join(temporaryFolder('dpx-config-example-'), 'config.json');
    writeFileSync(path, example);
    const config = await loadConfig(path);
    const used = new Set(Object.values(config.profiles).flatMap((profile) => Object.keys(profile)));
    expect([...PROFILE_KEYS].filter((key) => !used.has(key))).toEqual([]);
    for (const key of PROFILE_KEYS) expect(doc, `docs/connect.md says nothing of ${key}`).toContain(`\`${key}\``);
  });
});
