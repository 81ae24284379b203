// bench/fast-server.mjs in a process of its own, like the demo: its work never counts against the client.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'fast-server.mjs');

/**
 * Resolves with `{ baseUrl, token, close }` once the server listens with its pages rendered (with `lazy`,
 * rendered as they are asked for).
 */
export async function startFastServer(items, pageSize, { lazy = false } = {}) {
  const token = randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, [script, String(items), String(pageSize), token, ...(lazy ? ['lazy'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the fast server (${items} items) did not start within 60 s: ${errors}`)),
      60_000,
    );
    child.on('exit', (code) => reject(new Error(`the fast server exited with ${code}: ${errors}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const found = /base URL\s+(\S+)/.exec(text)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  child.removeAllListeners('exit');
  return {
    baseUrl,
    token,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}
