// The built bundle, run as a user would: `node dist/dpx.js …` in a child process.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RATE, useDemo } from '../../helpers/demo.js';
import { configPath } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const root = join(import.meta.dirname, '..', '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
const demo = useDemo({ scale: 10 });
const run = promisify(execFile);

function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    // The file's own (test/setup.ts): without HOME, dpx's cache would be the user's, by their passwd entry.
    XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'],
    DPX_CONFIG: configPath,
    DPX_RATE: LOCAL_RATE,
    DPX_BASE_URL: demo.region.baseUrl,
    DPX_TOKEN: demo.region.tokens.personal,
    ...extra,
  };
}

async function dpxBundle(args: string[], env = childEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bundle, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
}, 120_000);

/**
 * Records every file of code the process loads, on stderr, one `loaded <url>` line each: ES modules (a
 * loader hook), CommonJS modules (Module's compile) and scripts (vm.Script, as src/cli/code-cache.ts runs one).
 * A backslash at a line's end goes on with the next line: the template drops it and the newline.
 */
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(`
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
register('data:text/javascript,' + encodeURIComponent('export async function load(url, context, next) { \
if (url.startsWith("file:")) process._rawDebug("loaded " + url); return next(url, context); }'));
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) { \
process._rawDebug('loaded ' + pathToFileURL(filename)); return compile.call(this, content, filename); };
const Script = vm.Script;
vm.Script = class extends Script { constructor(code, options) { process._rawDebug('loaded ' + pathToFileURL(options.filename)); super(code, options); } };
`)}`;

/**
 * Reports on stderr each V8 flag set at run time (`v8 flag …`) and each Intl.Segmenter built (`segmenter`).
 * A changed flag makes V8 refuse Node's code cache for every built-in loaded afterwards; the first
 * Segmenter of a process loads ICU's break rules.
 */
const RECORD_START_COSTS = `data:text/javascript,${encodeURIComponent(`
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { process._rawDebug('v8 flag ' + flags); setFlags(flags); };
syncBuiltinESMExports();
const Segmenter = Intl.Segmenter;
Intl.Segmenter = class extends Segmenter { constructor(...args) { process._rawDebug('segmenter'); super(...args); } };
`)}`;

describe('the bundle', () => {
  it('a scriptable command starts lean: the command line in a few files, no V8 flag set, no Segmenter built', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', RECORD_LOADS, '--import', RECORD_START_COSTS, bundle, 'resources', '--output', 'json'],
      { env: childEnv() },
    );
    expect(JSON.parse(stdout).length).toBeGreaterThan(3);
    const loaded = [...stderr.matchAll(/^loaded (file:\S+)$/gm)].map((match) => fileURLToPath(match[1]!));
    // dpx.js, the module that runs the command line's graph, and that graph (it was 19 chunks when split),
    // none of them an ES module: Node's loader for those costs a file ≈ 3 ms more.
    // (The entry is seen twice: with --import, Node hands it to the hooks before it compiles it.)
    const ours = [...new Set(loaded.filter((file) => file.startsWith(join(root, 'dist'))))];
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.length).toBeLessThanOrEqual(3);
    expect(ours.filter((file) => file.endsWith('.mjs'))).toEqual([]);
    expect(stderr).not.toMatch(/^v8 flag /m);
    expect(stderr).not.toMatch(/^segmenter$/m);
  });

  it('a list of every page sizes the heap for streaming once it walks', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', RECORD_START_COSTS, bundle, 'list', 'users', '--all', '--output', 'ndjson'],
      { env: childEnv() },
    );
    expect(stdout.split('\n').length).toBeGreaterThan(1);
    // The young generation is let grow one step (a factor), then held (1) once a scavenge finds it grown.
    expect(stderr).toMatch(/^v8 flag --semi-space-growth-factor=\d+$/m);
    expect(stderr).toMatch(/^v8 flag --heap-growing-percent=100$/m);
  });

  it('a scriptable command loads none of the explorer: no ink, react or yoga is parsed', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', RECORD_LOADS, bundle, 'resources', '--output', 'json'],
      { env: childEnv() },
    );
    expect(JSON.parse(stdout).length).toBeGreaterThan(3);
    const loaded = [...stderr.matchAll(/^loaded (file:\S+)$/gm)].map((match) => fileURLToPath(match[1]!));
    expect(loaded.some((file) => file.includes(join('dist', 'chunks')))).toBe(true);
    // yoga's layout and react's contexts, by names their code keeps when minified.
    const explorerCode = /getComputedLayout|Symbol\.for\("react\.context"\)/;
    expect(loaded.filter((file) => explorerCode.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the proxy client loads only when a proxy is in use', async () => {
    const loadedWith = async (extra: Record<string, string>) => {
      const child = await run(process.execPath, ['--import', RECORD_LOADS, bundle, 'resources', '--output', 'json'], {
        env: childEnv(extra),
      }).catch((failed: { stderr: string }) => failed);
      return [...child.stderr.matchAll(/^loaded (file:\S+)$/gm)].map((match) => fileURLToPath(match[1]!));
    };
    // https-proxy-agent's and http-proxy-agent's code, by a header name the minifier keeps.
    const proxyCode = (files: string[]) =>
      files.filter((file) => readFileSync(file, 'utf8').includes('Proxy-Authorization'));
    expect(proxyCode(await loadedWith({}))).toEqual([]);
    expect(proxyCode(await loadedWith({ HTTP_PROXY: NOWHERE }))).toHaveLength(1);
  });

  it('shell completion loads none of the explorer either', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', RECORD_LOADS, bundle, '__complete', 'list', 'us'],
      { env: childEnv({ XDG_CACHE_HOME: join(configPath, '..', 'cache') }) },
    );
    expect(stdout).toBe('users\tv2 v1\n');
    const loaded = [...stderr.matchAll(/^loaded (file:\S+)$/gm)].map((match) => fileURLToPath(match[1]!));
    expect(stderr.replace(/^loaded \S+\n/gm, '')).toBe('');
    const explorerCode = /getComputedLayout|Symbol\.for\("react\.context"\)/;
    expect(loaded.filter((file) => explorerCode.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it("completes when the cache folder cannot be made (under /proc, where Node's recursive mkdir would spin)", async () => {
    const started = performance.now();
    const { code, stdout, stderr } = await dpxBundle(
      ['__complete', 'list', 'us'],
      childEnv({ XDG_CACHE_HOME: '/proc/dpx-no-cache' }),
    );
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'users\tv2 v1\n', stderr: '' });
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  describe('its code cache', () => {
    const freshCache = () => temporaryFolder('dpx-code-cache-');
    const codeCaches = (cacheHome: string) =>
      (existsSync(join(cacheHome, 'dpx')) ? readdirSync(join(cacheHome, 'dpx')) : []).filter((name) =>
        /^code-.*\.bin$/.test(name),
      );
    // A digest, not the bytes: toEqual compares a Buffer of 300 KiB byte by byte, at 0.76 s of CPU a time.
    const fileState = (file: string) => ({
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
      at: statSync(file).mtimeMs,
    });
    const resources = async (cacheHome: string, extra: Record<string, string> = {}) => {
      const { code, stdout, stderr } = await dpxBundle(
        ['resources', '--output', 'json'],
        childEnv({ XDG_CACHE_HOME: cacheHome, ...extra }),
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      return (JSON.parse(stdout) as { name: string }[]).map((resource) => resource.name);
    };

    it('is written by the first start and taken, unchanged, by the next; one that does not fit is refused and written anew', async () => {
      const cacheHome = freshCache();
      const names = await resources(cacheHome);
      const [cache] = codeCaches(cacheHome);
      expect(cache).toMatch(new RegExp(`-${process.version.replaceAll('.', '\\.')}-${process.arch}\\.bin$`));
      const file = join(cacheHome, 'dpx', cache!);
      const written = fileState(file);
      expect(statSync(file).mode & 0o077).toBe(0);
      expect(await resources(cacheHome)).toEqual(names);
      // V8 took it: a cache refused would have been written again.
      expect(fileState(file)).toEqual(written);
      const garbage = Buffer.alloc(statSync(file).size, 0x5a);
      writeFileSync(file, garbage);
      expect(await resources(cacheHome)).toEqual(names);
      expect(readFileSync(file).equals(garbage)).toBe(false);
      expect(readFileSync(file).length).toBeGreaterThan(1000);
    });

    it('is left by every first start in a fresh folder, however soon its command ends: 20 of 20', async () => {
      // A usage error ends before any request: the folder made by a promise during the run was not there yet.
      const homes = Array.from({ length: 20 }, freshCache);
      const runs = await Promise.all(
        homes.map((cacheHome) => dpxBundle(['list', 'users', '--token', 'x'], childEnv({ XDG_CACHE_HOME: cacheHome }))),
      );
      expect(runs.map((run) => run.code)).toEqual(homes.map(() => 2));
      expect(homes.filter((cacheHome) => codeCaches(cacheHome).length === 1)).toHaveLength(20);
    });

    it('of two starts that write it at once, leaves one whole file, taken unchanged by the next start', async () => {
      const cacheHome = freshCache();
      const [first, second] = await Promise.all([resources(cacheHome), resources(cacheHome)]);
      expect(second).toEqual(first);
      expect(readdirSync(join(cacheHome, 'dpx')).filter((name) => name.startsWith('code-'))).toEqual(
        codeCaches(cacheHome),
      );
      expect(codeCaches(cacheHome)).toHaveLength(1);
      const file = join(cacheHome, 'dpx', codeCaches(cacheHome)[0]!);
      const written = fileState(file);
      expect(await resources(cacheHome)).toEqual(first);
      // V8 took it: a cache refused would have been written again.
      expect(fileState(file)).toEqual(written);
    });

    it("written by a list of every page, which changes V8's flags as it walks, is taken unchanged by the next start", async () => {
      const cacheHome = freshCache();
      const walk = await dpxBundle(
        ['list', 'users', '--all', '--output', 'ndjson'],
        childEnv({ XDG_CACHE_HOME: cacheHome }),
      );
      expect({ code: walk.code, stderr: walk.stderr }).toEqual({ code: 0, stderr: '' });
      const file = join(cacheHome, 'dpx', codeCaches(cacheHome)[0]!);
      const written = fileState(file);
      await resources(cacheHome);
      // Made after the flags changed, V8 would refuse it under a start's flags, and it would be written again.
      expect(fileState(file)).toEqual(written);
    });

    it('keeps the newest four caches when it writes one', async () => {
      const cacheHome = freshCache();
      mkdirSync(join(cacheHome, 'dpx'));
      const old = [
        'code-chunk-A-v1-x.bin',
        'code-chunk-B-v1-x.bin',
        'code-chunk-C-v1-x.bin',
        'code-chunk-D-v1-x.bin',
        'code-chunk-E-v1-x.bin',
      ];
      old.forEach((name, i) => {
        writeFileSync(join(cacheHome, 'dpx', name), 'old');
        utimesSync(join(cacheHome, 'dpx', name), 1_000_000 + i, 1_000_000 + i);
      });
      await resources(cacheHome);
      const kept = codeCaches(cacheHome);
      expect(kept).toHaveLength(4);
      expect(kept).toEqual(
        expect.arrayContaining(['code-chunk-C-v1-x.bin', 'code-chunk-D-v1-x.bin', 'code-chunk-E-v1-x.bin']),
      );
      expect(kept.filter((name) => !old.includes(name))).toEqual([
        expect.stringMatching(new RegExp(`-${process.arch}\\.bin$`)),
      ]);
    });

    it("is not written under NODE_DISABLE_COMPILE_CACHE, the switch of Node's own, where the folder is there", async () => {
      const cacheHome = freshCache();
      mkdirSync(join(cacheHome, 'dpx'));
      await resources(cacheHome, { NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(codeCaches(cacheHome)).toEqual([]);
    });
  });

  it('lists the resources as JSON', async () => {
    const { code, stdout, stderr } = await dpxBundle(['resources', '--output', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { name: string }[]).map((resource) => resource.name)).toContain('users');
  });

  it('maps failures to exit codes with error and hint lines and no stack trace', async () => {
    const usage = await dpxBundle(['list', 'users', '--token', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: .*\nhint: .*DPX_TOKEN/);
    const api = await dpxBundle(['list', 'users'], childEnv({ DPX_TOKEN: demo.region.tokens.expired }));
    expect(api.code).toBe(1);
    const network = await dpxBundle(['resources'], childEnv({ DPX_BASE_URL: 'http://127.0.0.1:1' }));
    expect(network.code).toBe(3);
    for (const { stderr } of [usage, api, network]) {
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).not.toContain(demo.region.tokens.expired);
    }
  });

  it('streams ndjson: a line arrives while the server has served fewer than all pages', async () => {
    const start = demo.region.requestCount();
    const child = spawn(
      process.execPath,
      [bundle, 'list', 'tasks', '--all', '--page-size', '20', '--output', 'ndjson'],
      { env: childEnv() },
    );
    const servedAtFirstLine = await new Promise<number>((resolve) =>
      child.stdout.once('data', () => resolve(demo.region.requestCount() - start)),
    );
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      lines += chunk.toString().split('\n').length - 1;
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const pagesServed = demo.region.requestCount() - start - 1;
    expect(pagesServed).toBeGreaterThan(500);
    expect(servedAtFirstLine).toBeLessThan(pagesServed / 2);
    expect(lines).toBeGreaterThan(0);
  });

  it('stops quietly, exit 0, when the reader goes away (| head)', async () => {
    const start = demo.region.requestCount();
    const child = spawn(
      process.execPath,
      [bundle, 'list', 'tasks', '--all', '--page-size', '10', '--output', 'ndjson'],
      { env: childEnv() },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('');
    // It stopped walking soon after the pipe closed instead of fetching all 1,000+ pages.
    expect(demo.region.requestCount() - start).toBeLessThan(500);
  });
});
