// Bundles the CLI into one ESM file, dist/dpx.js, runnable with plain `node`.
// `--if-stale` skips the build when dist/dpx.js is newer than every input.
import { build } from 'esbuild';
import { statSync, readdirSync, existsSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSchemaModule } from './generate-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'dpx.js');

// The precompiled schema validators are generated, not committed: tsc and vitest read them too.
writeSchemaModule();

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

if (process.argv.includes('--if-stale') && existsSync(outfile)) {
  const inputs = ['src', 'fixtures', 'package.json', 'package-lock.json', 'scripts/build.mjs'].map((p) => join(root, p)).filter(existsSync);
  const newestInput = Math.max(...inputs.map(newestMtime));
  if (statSync(outfile).mtimeMs >= newestInput) process.exit(0);
}

mkdirSync(join(root, 'dist'), { recursive: true });
const stub = join(root, 'dist', '.react-devtools-stub.js');
writeFileSync(stub, 'export default {};\n');

await build({
  entryPoints: [join(root, 'src', 'cli', 'entry.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  jsx: 'automatic',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // ink pulls react-devtools-core only in development; it is never used at run time.
  alias: { 'react-devtools-core': stub },
  define: { 'process.env.NODE_ENV': '"production"' },
  // ketting and some of ink's dependencies are CommonJS and call require() for node built-ins.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __dpxCreateRequire } from 'node:module';\nconst require = __dpxCreateRequire(import.meta.url);" },
});
chmodSync(outfile, 0o755);
