// The curl a user may copy by hand (issue 38): the screen breaks it over lines, so `c` also writes it whole
// to a file whose path is shown; run as printed, it asks the control plane what the preview showed.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';
import { openScreen } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo({ frozen: true });

describe('c on the request preview', () => {
  it('writes the curl command whole to a file it names; the file runs as printed', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const request = await session.prepare({
      resource: 'users',
      operationId: 'list_users',
      query: { limit: '2', filter: JSON.stringify({ name: { $begins_with: 'a' } }) },
    });
    const folder = temporaryFolder('dpx-curl-test-');
    const ui = await openScreen(
      'request-preview',
      (origin, navigator) => ({ flow: { origin, start: navigator.top()!.id }, form: navigator.top()!.id, request }),
      { session, trailDir: folder, columns: 80, rows: 24 },
    );
    await ui.waitFor((f) => f.includes('GET http://127.0.0.1'), 'the preview');
    await ui.press('c');
    const frame = await ui.waitFor((f) => f.includes('written unwrapped to'), 'the file named');
    const path = /written unwrapped to (\S+\.sh)/.exec(frame.replace(/\n/g, ' '))?.[1];
    expect(path?.startsWith(folder)).toBe(true);
    const script = readFileSync(path!, 'utf8');
    expect(script.split('\n').filter((line) => line.startsWith('curl '))).toHaveLength(1);
    expect(statSync(path!).mode & 0o077).toBe(0);
    expect(script).not.toContain(demo.region.tokens.personal);
    // Run as printed, by a shell, while the demo (in this process) answers: not a blocking child.
    const { stdout: out } = await promisify(execFile)('sh', [path!], {
      env: { PATH: process.env['PATH'], DPX_TOKEN: demo.region.tokens.personal },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const body = JSON.parse(out) as { _embedded: { items: { name: string }[] } };
    expect(body._embedded.items.length).toBeGreaterThan(0);
    expect(body._embedded.items.every((item) => item.name.toLowerCase().startsWith('a'))).toBe(true);
    await ui.unmount();
  });
});
