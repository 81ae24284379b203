// A case recorded with a relative window (`--since 24h`) answers offline as it was recorded: the window
// is read against the recorded command's time, not today's clock, so the same request is found.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx } from '../cli/harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo({ frozen: true });
let dir = '';
beforeAll(async () => {
  dir = temporaryFolder('dpx-window-case-');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('a relative window in a case', () => {
  it('is asked again offline as it was recorded, whatever the clock says now', async () => {
    const trail = join(dir, 'case.har');
    const online = { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal };
    const recorded = await dpx(['--trail', trail, 'list', 'tasks', '--since', '24h', '-o', 'json'], { env: online });
    expect(recorded.code, recorded.stderr).toBe(0);
    const since = recorded.stderr.match(/≥ (\S+Z)/)![1]!;
    // A moment later the clock has moved: read against it, the window would be another request.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const offline = await dpx(['--offline', trail, 'list', 'tasks', '--since', '24h', '-o', 'json'], { env: {} });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toContain(`≥ ${since}`);
    expect(JSON.parse(offline.stdout)).toEqual(JSON.parse(recorded.stdout));
  });
});
