// The ticket answered in the explorer alone, in a terminal of 80×24 on the 40-tenant demo, with no command
// line: which tenants have the most failed restores of the last 24 hours, the worst tenant's newest one,
// what it restored from (its backup, protection group and policy), and a case file left for the next
// engineer. Every step waits for what the screen shows, never for time. The keys, as a user types them:
//   :count restores by status since 24h depth 1 ⏎   the matrix: every tenant × status, the last 24 hours
//   → s                                             the cursor on failed, the rows ranked by it
//   j ⏎                                             the worst tenant's failed restores
//   ⏎                                               the newest one
//   X                                               its x-ray: backup, protection group
//   j… ⏎ X                                          the protection group, and its x-ray: the policy
//   T                                               the case file (HAR), written where dpx runs
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, KEYS, root, startDpx, type Running } from '../helpers/pty.js';
import { demoRequest, LOCAL_RATE, useDemo } from '../helpers/demo.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo({ tenants: 40, frozen: true });
const OU_HEADER = 'x-service-organizationalunit-context';
let running: Running | undefined;
let dir: string;

beforeAll(async () => {
  buildOnce();
  dir = temporaryFolder('dpx-ticket-');
}, 60_000);
afterEach(() => {
  running?.kill();
  running = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = (screen: string) => screen.split('\n');
const cursorLine = (screen: string) => lines(screen).find((line) => line.startsWith('›')) ?? '';
/** The matrix's rows below its header: each unit's name and its numbers (total, then the values in order). */
function matrixRows(screen: string): { unit: string; numbers: number[] }[] {
  const all = lines(screen);
  const header = all.findIndex((line) => line.startsWith('UNIT'));
  return all
    .slice(header + 1, -1)
    .map((line) => /^(\s*\S.*?)\s{2,}(\d.*)$/.exec(line.replace(/^›/, ' ')))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      unit: match[1]!.trim(),
      numbers: (match[2]!.match(/\d[\d,]*/g) ?? []).map((n) => Number(n.replace(/,/g, ''))),
    }));
}

describe('the ticket, in the explorer alone', () => {
  it("ranks the tenants by failed restores of the last 24 hours, opens the worst one's newest, x-rays it to its policy and leaves a case file", async () => {
    const app = (running = startDpx([], {
      columns: 80,
      rows: 24,
      cwd: dir,
      env: {
        DPX_BASE_URL: demo.region.baseUrl,
        DPX_TOKEN: demo.region.tokens.personal,
        DPX_CONFIG: join(root, 'no-such-dir', 'config.json'),
        DPX_RATE: LOCAL_RATE,
      },
    }));
    let screens = 0;
    await app.waitFor((s) => s.includes('/ to filter') && s.includes('restores'), 'the catalog');

    // 1. Count the failed restores of the last 24 hours by tenant.
    const words = 'count restores by status since 24h depth 1';
    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
    app.pty.write(words);
    await app.waitFor(
      (s) => s.includes(`:${words}`) && cursorLine(s).startsWith('› count restores by status'),
      'the count in the palette',
    );
    app.pty.write(KEYS.enter);
    screens++;
    const counted = await app.settled(
      (s) =>
        s.includes('created_timestamp ≥') &&
        /^Global\s+\d/m.test(s) &&
        !/\d of 41 units .* 0 answered/.test(s) &&
        matrixRows(s).length > 10 &&
        !lines(s).some((line) => /\s…\s*$/.test(line) && !line.startsWith('41 of')),
      'the matrix counted',
      30_000,
    );
    expect(counted).toMatch(/^UNIT\s+total\s+failed\s+completed/m);
    const since = /created_timestamp ≥ (\S+)/.exec(counted)![1]!;

    // 2. Rank by failed: the cursor onto the failed column, and s.
    app.pty.write(KEYS.right);
    await app.waitFor(() => app.inverse().some((text) => text.includes('failed')), 'the cursor on failed');
    app.pty.write('s');
    const ranked = await app.settled((s) => /^UNIT\s+total\s+↓failed/m.test(s), 'the rows ranked by failed');
    const tenants = matrixRows(ranked).slice(1);
    const failed = tenants.map((row) => row.numbers[1]!);
    expect(failed).toEqual([...failed].sort((a, b) => b - a));
    // The worst tenant on screen is the worst there is: the server's own counts of each tenant's failed restores.
    const tenantUnits = (
      await demoRequest(
        demo.region,
        `/organizational-units?limit=100&filter=${encodeURIComponent(JSON.stringify({ kind: { $eq: 'tenant' } }))}`,
      )
    ).body._embedded.items as { id: string; name: string }[];
    expect(tenantUnits).toHaveLength(40);
    const filter = (extra: Record<string, unknown>) =>
      encodeURIComponent(JSON.stringify({ ...extra, created_timestamp: { $gte: since } }));
    const worst = tenants[0]!;
    const worstUnit = tenantUnits.find((unit) => unit.name === worst.unit)!;
    let most = 0;
    for (const tenant of tenantUnits) {
      const answer = await demoRequest(
        demo.region,
        `/restores?limit=1&filter=${filter({ status: { $eq: 'failed' } })}`,
        {
          headers: { [OU_HEADER]: tenant.id },
        },
      );
      most = Math.max(most, answer.body.total_count as number);
    }
    expect(worst.numbers[1]).toBe(most);
    expect(most).toBeGreaterThan(0);

    // 3. Open the worst tenant's failed restores.
    app.pty.write('j');
    await app.waitFor(
      (s) => cursorLine(s).includes(worst.unit) || lines(s).some((l) => l.includes(worst.unit)),
      'the cursor on the worst tenant',
    );
    app.pty.write(KEYS.enter);
    screens++;
    const list = await app.settled(
      (s) => s.includes(`OU ${worst.unit}`) && s.includes('(filtered)') && /page 1\//.test(s),
      "the worst tenant's failed restores",
    );
    expect(list).toContain(`${most} item`);

    // 4. Open the newest one: the list comes newest first.
    const restores = (
      await demoRequest(demo.region, `/restores?limit=100&filter=${filter({ status: { $eq: 'failed' } })}`, {
        headers: { [OU_HEADER]: worstUnit.id },
      })
    ).body._embedded.items as { id: string; created_timestamp: string; backup_id: string }[];
    const newest = [...restores].sort((a, b) => b.created_timestamp.localeCompare(a.created_timestamp))[0]!;
    expect(cursorLine(list)).toContain(newest.id.slice(0, 8));
    app.pty.write(KEYS.enter);
    screens++;
    await app.settled(
      (s) => s.includes(`id: "${newest.id}"`) && s.includes('status: "failed"'),
      'the newest failed restore',
    );

    // 5. X-ray it to its backup, protection group and policy.
    app.pty.write('X');
    screens++;
    const xray = await app.settled(
      (s) =>
        s.includes(`backup → backups ${newest.backup_id.slice(0, 8)}`) &&
        s.includes('protection_group → protection-groups'),
      'the x-ray: its backup and protection group',
      20_000,
    );
    expect(xray).not.toContain('✗');
    for (let moves = 0; !cursorLine(app.screen()).includes('protection_group →'); moves++) {
      expect(moves).toBeLessThan(6);
      const before = cursorLine(app.screen());
      app.pty.write('j');
      await app.waitFor((s) => cursorLine(s) !== before, 'the cursor moved');
    }
    app.pty.write(KEYS.enter);
    screens++;
    await app.settled(
      (s) => /policy\s+\/policies\//.test(s) && s.includes('links (Enter follows)'),
      'the protection group',
    );
    app.pty.write('X');
    screens++;
    await app.settled((s) => s.includes('policy → policies'), "the protection group's x-ray: its policy", 20_000);

    // 6. Leave a case file.
    app.pty.write('T');
    await app.waitFor((s) => s.includes('trail written'), 'the case file written');
    const [file] = (await readdir(dir)).filter((name) => /^dpx-trail-.*\.har$/.test(name));
    expect(file).toBeDefined();
    const text = await readFile(join(dir, file!), 'utf8');
    expect(text).not.toContain(demo.region.tokens.personal);
    for (const path of ['/restores', '/backups/', '/protection-groups/', '/policies/']) expect(text).toContain(path);
    // The walk: home, then the matrix, the list, the restore, its x-ray, the protection group, its x-ray.
    expect(screens).toBe(6);
  }, 120_000);
});
