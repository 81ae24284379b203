// Bundles the CLI into dist/dpx.js, runnable with plain `node`, and the code it loads only when needed
// (the explorer: ink, react, yoga and the screens; the demo; the profile commands) into dist/chunks/, so
// that a scriptable command parses only what it runs.
// `--if-stale` skips the build when dist/dpx.js is newer than every input.
import { build } from 'esbuild';
import { statSync, readdirSync, existsSync, mkdirSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { schemaModules, writeSchemaModules } from './generate-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');
const outfile = join(outdir, 'dpx.js');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

// Checked before the schemas are generated (≈ 0.3 s of ajv): the generated modules are older than the
// bundle when neither the schemas (fixtures/) nor the generator changed since the last build.
if (process.argv.includes('--if-stale') && existsSync(outfile) && schemaModules.every(existsSync)) {
  const inputs = ['src', 'fixtures', 'package.json', 'package-lock.json', 'scripts']
    .map((p) => join(root, p))
    .filter(existsSync);
  const newestInput = Math.max(...inputs.map(newestMtime));
  if (statSync(outfile).mtimeMs >= newestInput) process.exit(0);
}

// The precompiled schema validators are generated, not committed: tsc and vitest read them too.
writeSchemaModules();

// Chunks are named by their content: old ones would pile up beside the new.
rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const stub = join(root, 'dist', '.react-devtools-stub.js');
writeFileSync(stub, 'export default {};\n');
// The proxy agents log through `debug` when DEBUG names them, and what they log holds the proxy's URL
// with its user and password: in dpx they log nothing.
const silentDebug = join(root, 'dist', '.debug-stub.js');
writeFileSync(
  silentDebug,
  'export default function createDebug() { const debug = () => undefined; debug.enabled = false; return debug; }\n',
);
const shims = join(root, 'scripts', 'bundle-shims.mjs');
const { measuresByEastAsianWidth, missingExports, tokenizerWrapperSource, widthWrapperSource } = await import(
  pathToFileURL(shims).href
);

/** Fails the build when the real module a shim wraps no longer exports what the shim calls. */
async function checkWrapped(name, path) {
  const missing = missingExports(name, await import(pathToFileURL(path).href));
  return missing.length === 0
    ? undefined
    : [
        {
          text: `${name} at ${path} no longer exports ${missing.join(', ')}: scripts/bundle-shims.mjs must be updated`,
        },
      ];
}

const YOGA_FETCH = 'function ya(){return w||"function"!=typeof fetch?';
const YOGA_INSTANTIATE = 'return ya().then(function(f){return WebAssembly.instantiate(f,d)})';
const YOGA_INSTANTIATE_NOW =
  'return ya().then(function(f){var m=new WebAssembly.Module(f);return{module:m,instance:new WebAssembly.Instance(m,d)}})';
const WIDTH_SEGMENTER = 'const segmenter = new Intl.Segmenter();';
const LAZY_SEGMENTER =
  'let eagerSegmenter;\nconst segmenter = { segment: (text) => (eagerSegmenter ??= new Intl.Segmenter()).segment(text) };';
const WIDTH_EMOJI = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const LAZY_EMOJI =
  "let eagerEmoji;\nconst rgiEmojiRegex = { test: (text) => (eagerEmoji ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(text) };";
/** What the replacement of ink's `Output.get` relies on in ink's output.js: its class and the functions it is handed. */
const INK_OUTPUT = [
  'export default class Output {',
  "import sliceAnsi from 'slice-ansi';",
  'styledCharsToString, tokenize, } from',
  'getStyledChars(line) {',
  'getWidestLine(text) {',
];

/**
 * Routes every `string-width` (each installed version) and ink's `@alcalzone/ansi-tokenize` through
 * the wrappers of scripts/bundle-shims.mjs: ink measures and tokenises each line of each frame.
 */
const renderShims = {
  name: 'render-shims',
  setup(b) {
    b.onResolve({ filter: /^(string-width|@alcalzone\/ansi-tokenize)$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'real' });
      if (real.errors.length) return { errors: real.errors };
      return {
        path: real.path,
        namespace: args.path === 'string-width' ? 'fast-width' : 'fast-tokenize',
        pluginData: 'wrapped',
      };
    });
    // yoga's wasm is embedded as a data: URL, which its loader fetches through undici when fetch exists
    // (≈ 100 ms at start-up); decoding it in place (the loader's own path without fetch) is immediate.
    // Its compile is made synchronous (≈ 10 ms on the main thread): an asynchronous one waits for V8's
    // background compilers, which a fetch kept busy optimising undici's HTTP parser (also wasm); it took
    // 110–160 ms after a fetch, measured when dpx's requests still went through fetch.
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      for (const expected of [YOGA_FETCH, YOGA_INSTANTIATE]) {
        if (!source.includes(expected))
          return { errors: [{ text: `yoga-layout's wasm loader changed: ${expected} not found in ${args.path}` }] };
      }
      return {
        contents: source
          .replace(YOGA_FETCH, 'function ya(){return !0?')
          .replace(YOGA_INSTANTIATE, YOGA_INSTANTIATE_NOW),
        loader: 'js',
      };
    });
    // string-width builds its Segmenter when loaded, and a process's first Segmenter loads ICU's break
    // rules (≈ 10 ms); a command that prints only ASCII never needs it, so it is built on first use.
    // Version 8's emoji pattern likewise: \p{RGI_Emoji} costs ≈ 20 ms to build and as much again on its
    // first match, and the explorer's usual text never reaches it (see fastStringWidth's code points).
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/, namespace: 'file' }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(WIDTH_SEGMENTER))
        return { errors: [{ text: `string-width changed: ${WIDTH_SEGMENTER} not found in ${args.path}` }] };
      if (source.includes('{RGI_Emoji}$/v') && !source.includes(WIDTH_EMOJI))
        return { errors: [{ text: `string-width changed: ${WIDTH_EMOJI} not found in ${args.path}` }] };
      return {
        contents: source.replace(WIDTH_SEGMENTER, LAZY_SEGMENTER).replace(WIDTH_EMOJI, () => LAZY_EMOJI),
        loader: 'js',
      };
    });
    // ink rebuilds every row of the screen on every frame; its Output's `get` is replaced by one that
    // rebuilds only the rows whose writes differ from every row remembered (scripts/bundle-shims.mjs).
    b.onLoad({ filter: /ink[\\/]build[\\/]output\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      for (const expected of INK_OUTPUT) {
        if (!source.includes(expected))
          return { errors: [{ text: `ink's Output changed: ${expected} not found in ${args.path}` }] };
      }
      return {
        contents: [
          source,
          `import { rowMemoisedGet } from ${JSON.stringify(shims)};`,
          'Output.prototype.get = rowMemoisedGet({ sliceAnsi, styledCharsToString });',
          '',
        ].join('\n'),
        loader: 'js',
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'fast-width' }, async (args) => {
      const errors = await checkWrapped('string-width', args.path);
      if (errors) return { errors };
      const { version } = JSON.parse(await readFile(join(dirname(args.path), 'package.json'), 'utf8'));
      // The copy of get-east-asian-width that this string-width itself imports.
      const eastAsian = measuresByEastAsianWidth(version)
        ? await b.resolve('get-east-asian-width', { kind: 'import-statement', resolveDir: dirname(args.path) })
        : undefined;
      if (eastAsian?.errors.length) return { errors: eastAsian.errors };
      return {
        resolveDir: root,
        contents: widthWrapperSource({ real: args.path, shims, eastAsian: eastAsian?.path }),
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'fast-tokenize' }, async (args) => {
      const errors = await checkWrapped('@alcalzone/ansi-tokenize', args.path);
      if (errors) return { errors };
      return { resolveDir: root, contents: tokenizerWrapperSource({ real: args.path, shims }) };
    });
  },
};

/**
 * `node:process` as the global it is. Node's module for it builds its namespace by reading every property
 * of `process`, the lazy ones too (process.report loads its own module): ≈ 6 ms of every start, for what
 * env-paths, ink and their dependencies import by name. The names imported are the ones given here: one
 * more fails the build ("No matching export").
 */
const processGlobal = {
  name: 'process-global',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    b.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({
      contents:
        'export default globalThis.process;\nexport const env = globalThis.process.env;\nexport function cwd() { return globalThis.process.cwd(); }\n',
      loader: 'js',
    }));
  },
};

// Some of ink's dependencies are CommonJS and call require() for node built-ins; every output file (the
// entry and each chunk) is a module of its own and gets its own require, made on its first call: most
// chunks never call it, and making one costs ≈ 0.5 ms of the start.
const BANNER = [
  '#!/usr/bin/env node',
  "import { createRequire as __dpxCreateRequire } from 'node:module';",
  'let __dpxRequire;',
  'const require = (id) => (__dpxRequire ??= __dpxCreateRequire(import.meta.url))(id);',
].join('\n');

const cliGraph = join(root, 'src', 'cli', 'main.ts');

/**
 * The command line's static graph (main.ts and all it imports) as one chunk. esbuild's splitting gives
 * each set of entries that reach a module a chunk of its own, and each lazily imported module (the
 * explorer, the demo, replay, a body's schema check, …) is an entry reaching some part of that graph:
 * a scriptable command loaded 22 files through 84 resolutions. Every lazy import in src/ runs after
 * main.ts has been evaluated (they are all below it), so each is built as if it also imported main.ts:
 * that costs nothing at run time, and every module of the graph is then reached by the same entries.
 * main.ts itself, the entry, is then in that chunk too, and the entry file only imports it.
 */
const oneCliChunk = {
  name: 'one-cli-chunk',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      // Node's built-ins stay as they are: there is nothing of the graph to load before them.
      if (
        args.kind !== 'dynamic-import' ||
        args.pluginData === 'real' ||
        !args.importer.startsWith(join(root, 'src')) ||
        args.path.startsWith('node:')
      )
        return undefined;
      const real = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'real',
      });
      if (real.errors.length) return { errors: real.errors };
      return { path: real.path, namespace: 'after-cli' };
    });
    b.onLoad({ filter: /.*/, namespace: 'after-cli' }, (args) => ({
      resolveDir: root,
      contents: `import ${JSON.stringify(cliGraph)};\nexport * from ${JSON.stringify(args.path)};\n`,
    }));
  },
};

const { metafile } = await build({
  entryPoints: { dpx: join(root, 'src', 'cli', 'main.ts') },
  outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // .mjs: dist/package.json makes dist's .js files CommonJS, for the entry (see startWithoutModules).
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  jsx: 'automatic',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // ink pulls react-devtools-core only in development; it is never used at run time.
  // jsonc-parser's main file is a UMD module whose require() calls esbuild cannot follow: its ES module build instead.
  alias: { 'react-devtools-core': stub, debug: silentDebug, 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Negotiate (Kerberos) proxy authentication, which the proxy agents load only when asked to: dpx never asks.
  external: ['kerberos'],
  plugins: [oneCliChunk, renderShims, processGlobal],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: { js: BANNER },
  absWorkingDir: root,
  metafile: true,
});
await startWithoutModules(metafile);
chmodSync(outfile, 0o755);

/**
 * A command starts without Node's ES module loader, and its code through V8's code cache
 * (src/cli/code-cache.ts). Node 20 keeps no compiled code for modules between runs, and its loader costs
 * a file module ≈ 3 ms more than the CommonJS one. So:
 * - the command line's chunk becomes `<chunk>.script.js`, one function expression: esbuild bundles it
 *   with the helpers it imports and writes it as CommonJS (require() for Node's built-ins), with the
 *   chunks it imports later through the function it is handed, and its exports handed over at the end;
 * - `<chunk>.cjs` runs it (through the cache) and exports what it hands over;
 * - `<chunk>.mjs`, which the explorer's and the other commands' chunks import, re-exports those: an ES
 *   module importing a CommonJS one shares its instance;
 * - dist/dpx.js, CommonJS by dist/package.json, requires `<chunk>.cjs`.
 */
async function startWithoutModules({ outputs }) {
  const entry = join(outdir, 'dpx.mjs');
  const found = Object.entries(outputs).filter(([, output]) => 'src/cli/run.ts' in output.inputs);
  if (found.length !== 1) throw new Error(`the command line's graph is in ${found.length} chunks, not one`);
  const [[file, output]] = found;
  const chunk = join(root, file);
  const name = basename(chunk, '.mjs');
  const withoutBanner = (path, code) => {
    if (!code.startsWith(`${BANNER}\n`)) throw new Error(`${path} does not start with the build's banner`);
    return code.slice(BANNER.length + 1);
  };

  // Its own require is the one handed to the function; the banner's would shadow it.
  let code = withoutBanner(file, await readFile(chunk, 'utf8'));
  if (code.includes('import.meta')) throw new Error(`${file} reads import.meta, which a script has not`);
  // A script's import() takes no loader of ours without --experimental-vm-modules: the chunks and the
  // built-ins it imports later are imported through the function it is handed.
  for (const { path, external } of output.imports.filter(({ kind }) => kind === 'dynamic-import')) {
    const specifier = JSON.stringify(external ? path : `./${basename(path)}`);
    if (!code.includes(`import(${specifier})`) && !code.includes(`__dpxImportChunk(${specifier})`))
      throw new Error(`${file} imports ${path} later, but not as import(${specifier})`);
    code = code.replaceAll(`import(${specifier})`, `__dpxImportChunk(${specifier})`);
  }
  // Its exports as one plain object: CommonJS's module.exports would copy each through two getters.
  const exportClause = /export\s*\{([\w$\s,]*)\};\s*$/.exec(code);
  if (!exportClause) throw new Error(`${file} does not end with the export clause esbuild writes`);
  const exported = exportClause[1]
    .split(',')
    .map((binding) => binding.trim().split(/\s+as\s+/))
    .filter(([local]) => local);
  if (
    exported
      .map(([local, name = local]) => name)
      .sort()
      .join() !== [...output.exports].sort().join()
  )
    throw new Error(`${file}'s export clause does not name what the metafile says it exports`);
  code = `${code.slice(0, exportClause.index)}__dpxExports({${exported.map(([local, name = local]) => `${name}:${local}`).join(',')}});\n`;
  const commonJs = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
  const script = await build({
    ...commonJs,
    stdin: { contents: code, resolveDir: dirname(chunk), sourcefile: basename(chunk), loader: 'js' },
    write: false,
    plugins: [
      {
        name: 'chunks-without-banner',
        setup(b) {
          b.onLoad({ filter: /\.mjs$/ }, async (args) => ({
            contents: withoutBanner(args.path, await readFile(args.path, 'utf8')),
            loader: 'js',
          }));
        },
      },
    ],
  });
  writeFileSync(
    join(dirname(chunk), `${name}.script.js`),
    `(function (require, __dpxImportChunk, __dpxExports) {"use strict";${script.outputFiles[0].text}\n})`,
  );

  await build({
    stdin: {
      contents: [
        `const { runChunk } = require(${JSON.stringify(join(root, 'src', 'cli', 'code-cache.ts'))});`,
        `module.exports = runChunk(require('node:path').join(__dirname, ${JSON.stringify(`${name}.script.js`)}));`,
        '',
      ].join('\n'),
      resolveDir: root,
      sourcefile: `${name}.cjs`,
      loader: 'js',
    },
    ...commonJs,
    outfile: join(dirname(chunk), `${name}.cjs`),
    plugins: [processGlobal],
  });
  // Names of its own start with __dpx: the minifier never gives an export such a name.
  writeFileSync(
    chunk,
    `import __dpxCli from ${JSON.stringify(`./${name}.cjs`)};\nexport const { ${output.exports.join(', ')} } = __dpxCli;\n`,
  );

  const entryImports = withoutBanner('dpx.mjs', await readFile(entry, 'utf8')).replaceAll(
    /import\s*"\.\/chunks\/[\w-]+\.mjs";/g,
    '',
  );
  if (entryImports.trim() !== '')
    throw new Error(`dist/dpx.mjs does more than import chunks: ${entryImports.slice(0, 200)}`);
  rmSync(entry);
  writeFileSync(outfile, `#!/usr/bin/env node\n"use strict";\nrequire(${JSON.stringify(`./chunks/${name}.cjs`)});\n`);
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
}
