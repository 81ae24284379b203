// The folders of src/ and which of them each may import, enforced the way no-api-paths enforces rule 1:
// the headless core knows no terminal, no command line and no demo; the explorer knows the demo only as
// a base URL and tokens; the demo shares nothing with the client but fixtures/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * The explorer and the command line, as src/api: each folder (with a README) may import only the folders
 * named here and the shared files at the top of its tree, never the composition root there, which imports
 * the folders; and no file of either imports back into a circle.
 */
interface Tree {
  dir: string;
  allowed: Record<string, string[]>;
  /** Files at the top that put the tree together: no folder imports them (but those named in `rootFor`). */
  root: string[];
  rootFor?: Record<string, string[]>;
}
const TREES: Record<string, Tree> = {
  ui: {
    dir: join(src, 'ui'),
    allowed: { services: [], nav: ['services'], components: ['nav'], screens: ['nav', 'components', 'services'] },
    root: ['app.ts', 'registry.ts', 'global-keys.ts', 'draw.tsx'],
  },
  cli: {
    dir: join(src, 'cli'),
    allowed: { format: [], options: ['format'], commands: ['options', 'format'], completion: ['commands', 'format'] },
    root: [
      'main.ts',
      'run.ts',
      'args.ts',
      'help.ts',
      'context.ts',
      'recorded-command.ts',
      'command-line.ts',
      'code-cache.ts',
    ],
    // `dpx __complete` is an entry of its own beside run.ts: it reads the parser, and starts the demo as run does.
    rootFor: { completion: ['args.ts', 'context.ts'] },
  },
};

/** Where a file sits in a tree: its folder ('' at the top) and the path below that folder. */
function placeIn(tree: Tree, path: string): { folder: string; rest: string[] } | undefined {
  const inside = relative(tree.dir, path);
  if (inside.startsWith('..')) return undefined;
  const parts = inside.split(sep);
  return parts.length === 1 ? { folder: '', rest: parts } : { folder: parts[0]!, rest: parts.slice(1) };
}

/** Every relative import of the files under `dir`, resolved to a file. */
function importsUnder(dir: string): { from: string; to: string; specifier: string }[] {
  return sourceFiles(dir).flatMap((file) =>
    importedSpecifiers(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .flatMap((specifier) => {
        const base = resolve(dirname(file), specifier).replace(/\.js$/, '');
        const to = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
        return to === undefined ? [] : [{ from: file, to, specifier }];
      }),
  );
}

/** The files of a circle of imports, if any, as paths from the root. */
function circles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    state.set(file, 'open');
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...path.slice(path.indexOf(to)), to].map((f) => relative(root, f)));
      else if (!state.has(to)) visit(to, [...path, to]);
    }
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file, [file]);
  return found;
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

  for (const [name, tree] of Object.entries(TREES)) {
    it(`knows every folder of src/${name}, and each has a README`, () => {
      const folders = readdirSync(tree.dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      expect(folders.filter((folder) => !(folder in tree.allowed))).toEqual([]);
      expect(folders.filter((folder) => !readdirSync(join(tree.dir, folder)).includes('README.md'))).toEqual([]);
    });

    it(`no import in src/${name} runs back up: a folder imports the folders below it, never the root`, () => {
      const offenders: string[] = [];
      for (const { from, to, specifier } of importsUnder(tree.dir)) {
        const source = placeIn(tree, from)!;
        const target = placeIn(tree, to);
        if (target === undefined || source.folder === '' || target.folder === source.folder) continue;
        const ok =
          target.folder === ''
            ? !tree.root.includes(target.rest[0]!) || (tree.rootFor?.[source.folder] ?? []).includes(target.rest[0]!)
            : tree.allowed[source.folder]!.includes(target.folder);
        if (!ok) offenders.push(`${relative(root, from)} → ${specifier}`);
      }
      expect(offenders).toEqual([]);
    });

    it(`no circle of imports in src/${name}`, () => {
      expect(circles(importsUnder(tree.dir))).toEqual([]);
    });
  }

  it("no command's folder imports another's", () => {
    const commands = join(src, 'cli', 'commands');
    const folderOfCommand = (path: string) => {
      const parts = relative(commands, path).split(sep);
      return parts.length > 1 && !parts[0]!.startsWith('..') ? parts[0] : undefined;
    };
    const offenders = importsUnder(commands)
      .filter(({ from, to }) => {
        const [a, b] = [folderOfCommand(from), folderOfCommand(to)];
        return a !== undefined && b !== undefined && a !== b;
      })
      .map(({ from, specifier }) => `${relative(root, from)} → ${specifier}`);
    expect(offenders).toEqual([]);
  });
});
