// Runs the command line's code (the bundle's chunk every command loads) through V8's code cache. Node 20
// keeps no compiled code between runs (22 has module.enableCompileCache), and compiling that chunk is the
// largest part of a command's start: each start would parse the same 250 KB again. The build
// (scripts/build.mjs) writes the chunk as one function expression; this runs it as a vm.Script with the
// code V8 compiled for it last time.
// The cache is the user's, in dpx's cache folder, one file per chunk, Node version and architecture; V8
// refuses one that does not fit (another V8, other flags, a truncated file) and the code compiles as
// usual. NODE_DISABLE_COMPILE_CACHE, the switch of Node's own cache, turns it off.
// The cache is made under the flags a start has: see BEFORE_V8_FLAGS.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { defaultCacheDir } from '../config/cache-dir.js';
import { makeDirectorySync } from '../config/files.js';
import { BEFORE_V8_FLAGS } from './heap.js';

/** The build's function expression: what it requires, how it imports the chunks it loads later, where it hands its exports. */
type ChunkFunction = (
  require: (id: string) => unknown,
  importChunk: (specifier: string) => Promise<unknown>,
  exportAll: (exports: Record<string, unknown>) => void,
) => void;

/**
 * Runs the chunk at `path` and returns its exports. It requires only Node's built-ins; what it imports
 * later is a built-in too (required: Node's module loader would cost it ≈ 3 ms more, and the members are
 * the same) or one of the bundle's ES modules beside it.
 */
export function runChunk(path: string): Record<string, unknown> {
  const cacheFile = process.env['NODE_DISABLE_COMPILE_CACHE']
    ? undefined
    : join(defaultCacheDir(process.env), `code-${basename(path, '.js')}-${process.version}-${process.arch}.bin`);
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const script = new Script(readFileSync(path, 'utf8'), { filename: path, cachedData });
  let exports: Record<string, unknown> = {};
  const require = createRequire(path);
  (script.runInThisContext() as ChunkFunction)(
    require,
    async (specifier) =>
      specifier.startsWith('node:') ? require(specifier) : import(pathToFileURL(join(dirname(path), specifier)).href),
    (all) => (exports = all),
  );
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // Written as the process ends, so that it holds the functions this run compiled too, not only the
    // chunk's top level: what the next start would otherwise compile again on first call.
    // A run that changes V8's flags (heap.ts) has it made just before: made after, it would carry those
    // flags, and the next start would refuse it and compile again.
    let beforeFlags: Buffer | undefined;
    process.once(BEFORE_V8_FLAGS, () => (beforeFlags = script.createCachedData()));
    process.once('exit', () => keep(cacheFile, beforeFlags ?? script.createCachedData()));
  }
  return exports;
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Caches kept in all: an upgrade leaves the last build's behind, and two installs of dpx take turns. */
const CACHES_KEPT = 4;

/**
 * Writes the cache (a temporary file renamed: a second dpx never reads half of one, and of two that write
 * at once the last rename wins whole) and removes all but the newest few. Synchronous, as an `exit`
 * listener must be: so is making the folder here. (Made during the run, by a promise, a command that
 * ended first — a usage error, a start that found its answers cached — left no cache.) Where the folder
 * cannot be made, the run ends as it would have.
 */
function keep(file: string, code: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    makeDirectorySync(dirname(file));
    writeFileSync(temporary, code, { mode: 0o600 });
    renameSync(temporary, file);
    const dir = dirname(file);
    const caches = readdirSync(dir)
      .filter((name) => name.startsWith('code-') && name.endsWith('.bin'))
      .map((name) => ({ path: join(dir, name), written: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const old of caches.slice(CACHES_KEPT)) rmSync(old.path, { force: true });
  } catch {
    rmSync(temporary, { force: true });
  }
}
