// Where dpx keeps what it caches between runs. Its own module: the code cache's loader (src/cli/code-cache.ts)
// needs it before the command line's code is loaded, and bundles it on its own.
import { isAbsolute, join } from 'node:path';
import envPaths from 'env-paths';

/** `$XDG_CACHE_HOME/dpx` when the environment names one, else the platform's cache folder for dpx. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return xdg && isAbsolute(xdg) ? join(xdg, 'dpx') : envPaths('dpx', { suffix: '' }).cache;
}
