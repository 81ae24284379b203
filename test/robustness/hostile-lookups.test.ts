// Reverse lookups against a control plane shaped like the real service (test/helpers/hostile-plane.ts):
// it reads filters in the operator form alone, on each list's declared fields, and refuses anything else
// with a 400 and a numeric error code. The x-ray asks in the operator form first, names every list it
// cannot search, pairs a type field with an id field only when the type names resources, and remembers
// per control plane and list what it learned, so the next run asks each list in its own language at once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filterCache } from '../../src/config/cache.js';
import { Session } from '../../src/api/session/session.js';
import { runXray } from '../../src/api/xray/xray.js';
import { startHostilePlane, type HostilePlane } from '../helpers/hostile-plane.js';
import { runDpx, tempDir } from './cli.js';

const TOKEN = 'hostile-lookups-token-6c1f0e';
let plane: HostilePlane | undefined;
afterEach(async () => {
  await plane?.close();
  plane = undefined;
});

async function serve(): Promise<HostilePlane> {
  plane = await startHostilePlane();
  return plane;
}

function cli(running: HostilePlane, argv: string[], cacheHome: string) {
  return runDpx([...argv, '--base-url', running.baseUrl], {
    DPX_TOKEN: TOKEN,
    DPX_CONFIG: join(cacheHome, 'config.json'),
    XDG_CACHE_HOME: cacheHome,
  });
}

/** The filters sent to a list, as the server received them. */
function filtersSent(running: HostilePlane, list: string): unknown[] {
  return running
    .apiRequests()
    .map((request) => new URL(request.url, running.baseUrl))
    .filter((url) => url.pathname === `/${list}` && url.searchParams.has('filter'))
    .map((url) => JSON.parse(url.searchParams.get('filter')!));
}

describe('x-ray reverse lookups on a control plane that reads operator filters only', () => {
  it('finds what refers to the record in the operator form, and names the lists that refuse every form', async () => {
    const running = await serve();
    const cache = tempDir('dpx-hostile-lookups-');
    const run = await cli(running, ['xray', 'jobs', 'j-1'], cache);
    expect(run.code, run.stderr).toBe(0);
    const referred = run.stdout.slice(run.stdout.indexOf('Referred to by'), run.stdout.indexOf('History'));
    expect(referred).toContain('snapshots by job_id: 2');
    expect(referred).toContain('activities by primary_entity.type/primary_entity.id: 2');
    expect(referred).toContain('not searchable: `notifications` refused a filter on `job_id` (`40013`)');
    expect(referred).toContain('not searchable: `audit-logs` refused a filter on `target_type/target_id` (`40013`)');
    // volume_type holds disk types (gp2, io1): it names no resource, so it is no type of volume_id.
    expect(run.stdout).not.toContain('volume_type');
    expect(filtersSent(running, 'snapshots')).toEqual([{ job_id: { $eq: 'j-1' } }]);
    expect(filtersSent(running, 'activities')).toEqual([
      { 'primary_entity.type': { $eq: 'job' }, 'primary_entity.id': { $eq: 'j-1' } },
    ]);
    // A list that refused the operator form was asked once in the bare form too, and refused that as well.
    expect(filtersSent(running, 'notifications')).toEqual([{ job_id: { $eq: 'j-1' } }, { job_id: 'j-1' }]);
    // The history is made of what the operator-form lookups found.
    expect(run.stdout).toMatch(/History \(newest first\)[\s\S]*job\.fail[\s\S]*job\.start/);
  });

  it("json lists every list it could not search as `unsearchable`, with the server's code", async () => {
    const running = await serve();
    const run = await cli(running, ['xray', 'jobs', 'j-1', '-o', 'json'], tempDir('dpx-hostile-lookups-'));
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.unsearchable).toEqual([
      expect.objectContaining({
        list: 'audit-logs',
        field: 'target_type/target_id',
        via: 'target_type/target_id',
        reason: 'refused',
        code: '40013',
      }),
      expect.objectContaining({
        list: 'notifications',
        field: 'job_id',
        via: 'job_id',
        reason: 'refused',
        code: '40013',
        message: "Field 'job_id' cannot be used in a filter",
      }),
    ]);
    const inbound = document.edges
      .filter((edge: { direction: string }) => edge.direction === 'in')
      .map((edge: { via: string }) => edge.via);
    expect(inbound).toEqual([
      'job_id',
      'job_id',
      'primary_entity.type/primary_entity.id',
      'primary_entity.type/primary_entity.id',
    ]);
  });

  it('remembers per control plane and list which form and fields it accepts: the next run sends no refused query and no bare one', async () => {
    const running = await serve();
    const cache = tempDir('dpx-hostile-lookups-');
    const first = await cli(running, ['xray', 'jobs', 'j-1', '-o', 'json'], cache);
    const afterFirst = running.apiRequests().length;
    const stored = await filterCache(join(cache, 'dpx')).read(running.baseUrl);
    expect(stored).toMatchObject({
      form: 'operator',
      lists: {
        'snapshots v1': { form: 'operator', accepted: ['job_id'] },
        'activities v1': {
          form: 'operator',
          accepted: ['primary_entity.type', 'primary_entity.id'],
          typeFields: { 'primary_entity.type': true },
        },
        'notifications v1': { refused: { job_id: { code: '40013' } } },
        'audit-logs v1': { refused: { 'target_type/target_id': { code: '40013' } }, typeFields: { target_type: true } },
      },
    });
    expect(stored?.lists['snapshots v1']?.typeFields).toEqual({ volume_type: false });
    // Nothing secret is kept: the cache names the base URL and what the lists said, never the token.
    const files = readdirSync(join(cache, 'dpx'));
    for (const file of files) expect(readFileSync(join(cache, 'dpx', file), 'utf8')).not.toContain(TOKEN);

    const second = await cli(running, ['xray', 'jobs', 'j-1', '-o', 'json'], cache);
    expect(second.code).toBe(0);
    const again = running
      .apiRequests()
      .slice(afterFirst)
      .map((request) => new URL(request.url, running.baseUrl));
    const filtered = again.filter((url) => url.searchParams.has('filter'));
    // Only the searchable lists were asked, each once, in the operator form.
    expect(filtered.map((url) => url.pathname).sort()).toEqual(['/activities', '/snapshots']);
    expect(
      filtered.every((url) =>
        Object.values(JSON.parse(url.searchParams.get('filter')!)).every((value) => typeof value === 'object'),
      ),
    ).toBe(true);
    expect(JSON.parse(second.stdout).unsearchable).toEqual(JSON.parse(first.stdout).unsearchable);
    expect(JSON.parse(second.stdout).requests).toBeLessThan(JSON.parse(first.stdout).requests);
  });

  it('through the API: a group per list says the form it answered in, or why it cannot be searched', async () => {
    const running = await serve();
    const session = new Session({ baseUrl: running.baseUrl, token: TOKEN, maxRetries: 0 });
    const result = await runXray(session, { resource: 'jobs', id: 'j-1' });
    const byList = Object.fromEntries(
      result.inbound.map((group) => [`${group.candidate.resource} ${group.candidate.via}`, group]),
    );
    expect(byList['snapshots job_id']).toMatchObject({ form: 'operator', total: 2 });
    expect(byList['notifications job_id']!.unsearchable).toMatchObject({ reason: 'refused', code: '40013' });
    expect(byList['notifications job_id']!.keys).toEqual([]);
    expect(Object.keys(byList).some((key) => key.includes('volume'))).toBe(false);
  });
});
