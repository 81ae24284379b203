// Dependencies whose internals dpx relies on are pinned to the exact version those internals were read
// from: the build patches ink's renderer, yoga's wasm loader and ansi-tokenize. A range would let an
// install bring a version whose internals moved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const installed = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('pinned dependencies', () => {
  it.each(['ink', 'yoga-layout', '@alcalzone/ansi-tokenize'])('%s is pinned to one exact version, and that version is installed', (name) => {
    const wanted = manifest.dependencies[name];
    expect(wanted, `${name} in dependencies`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed(name)).toBe(wanted);
  });
});
