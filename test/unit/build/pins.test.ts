// Dependencies whose internals dpx relies on are pinned to the exact version those internals were read
// from: the build patches ink's renderer, yoga's wasm loader and ansi-tokenize. A range would let an
// install bring a version whose internals moved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('pinned dependencies', () => {
  it.each(['ink', 'yoga-layout', '@alcalzone/ansi-tokenize'])(
    '%s is pinned to one exact version, and that version is installed',
    (name) => {
      const wanted = manifest.devDependencies[name];
      expect(wanted, `${name} in devDependencies`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(installed(name)).toBe(wanted);
    },
  );
});

describe('the package', () => {
  // dist/ is one bundle with everything it runs in it: `npm install -g dpx-*.tgz` fetches nothing and
  // runs no script. A dependency listed under "dependencies" would be installed beside it for nothing.
  it('depends on nothing at run time, and runs no script when installed', () => {
    const full = manifest as typeof manifest & { scripts: Record<string, string> };
    expect(manifest.dependencies ?? {}).toEqual({});
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(full.scripts[script], script).toBeUndefined();
  });
});
