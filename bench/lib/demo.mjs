// The demo control plane in a process of its own (`dpx demo`), so its work never counts against the
// client being measured. Its first region's base URL and personal token are read from what it prints.
import { spawn } from 'node:child_process';

export async function startDemoProcess(bundle, scale, extraArgs = []) {
  const child = spawn(process.execPath, [bundle, 'demo', '--port', '0', '--scale', String(scale), ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the demo (scale ${scale}) did not start within 120 s: ${errors}`)),
      120_000,
    );
    child.on('exit', (code) => reject(new Error(`the demo exited with ${code}: ${errors}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const baseUrl = /base URL\s+(\S+)/.exec(text)?.[1];
      const token = /personal token\s+(\S+)/.exec(text)?.[1];
      if (baseUrl && token && text.includes('Ctrl+C')) {
        clearTimeout(timer);
        resolve({ baseUrl, token });
      }
    });
  });
  child.removeAllListeners('exit');
  return {
    ...ready,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}
