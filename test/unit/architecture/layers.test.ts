// The folders of src/ and which of them each may import, enforced the way no-api-paths enforces rule 1:
// the headless core knows no terminal, no command line and no demo; the explorer knows the demo only as
// a base URL and tokens; the demo shares nothing with the client but fixtures/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const src = join(root, 'src');

/** Folder → the folders of src/ its modules may import (type-only imports included). */
const ALLOWED: Record<string, string[]> = {
  api: ['api'],
  config: ['config', 'api'],
  text: ['text', 'api'],
  ui: ['ui', 'api', 'config', 'text'],
  cli: ['cli', 'api', 'config', 'text', 'ui', 'demo'],
  demo: ['demo'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file names: static imports and exports, `import type`, and dynamic import(). */
function importedSpecifiers(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [
    ...withoutComments.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...withoutComments.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...withoutComments.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ].map((match) => match[1]!);
}

function folderOf(path: string): string | undefined {
  const inside = relative(src, path);
  return inside.startsWith('..') ? undefined : inside.split(sep)[0];
}

/** Folder of src/api → the folders of src/api it may import; every one may import the files at its top. */
const API_ALLOWED: Record<string, string[]> = {
  wire: [],
  hal: ['wire'],
  security: ['hal'],
  session: ['wire', 'hal', 'security'],
  operations: ['hal', 'security'],
  case: ['wire', 'hal', 'security', 'session'],
  fanout: ['hal', 'session', 'operations'],
  xray: ['wire', 'hal', 'session', 'operations'],
};
const api = join(src, 'api');

/** The folder of src/api a file sits in, '' for a file at its top, undefined outside it. */
function apiFolderOf(path: string): string | undefined {
  const inside = relative(api, path);
  if (inside.startsWith('..')) return undefined;
  const parts = inside.split(sep);
  return parts.length === 1 ? '' : parts[0];
}

describe('layers', () => {
  it('reads imports of every kind', () => {
    const code =
      "import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = await import('../d.js');\n// import x from '../x.js'";
    expect(importedSpecifiers(code)).toEqual(['./a.js', '../b.js', './c.js', '../d.js']);
  });

  it('knows every folder of src/', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in ALLOWED))).toEqual([]);
  });

  it('no module imports a folder its own may not', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(src)) {
      const from = folderOf(file)!;
      for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const to = folderOf(resolve(dirname(file), specifier));
        if (to !== undefined && !ALLOWED[from]!.includes(to)) offenders.push(`${relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('knows every folder of src/api, and each has a README', () => {
    const folders = readdirSync(api, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in API_ALLOWED))).toEqual([]);
    expect(folders.filter((folder) => !readdirSync(join(api, folder)).includes('README.md'))).toEqual([]);
  });

  // The ninth is visible.ts: error messages are made inert where they are built, so it sits below errors.ts.
  it('keeps at most 8 files at the top of src/api', () => {
    const files = readdirSync(api, { withFileTypes: true }).filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name),
    );
    expect(files.length).toBeLessThanOrEqual(8);
  });

  it('no folder of src/api imports one above it, and the top imports no folder', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(api)) {
      const from = apiFolderOf(file)!;
      for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const to = apiFolderOf(resolve(dirname(file), specifier));
        if (to === undefined || to === '' || to === from) continue;
        if (from === '' || !API_ALLOWED[from]!.includes(to)) offenders.push(`${relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
