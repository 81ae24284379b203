// Names beside ids in the count matrix, at 80×24 on the demo over HTTP: a matrix counted by a field of
// ids (`role_id`, `policy_id`, a unit's id) shows each value's name beside a short id in its header, cut
// to the column; a unit is named from the tree with no request, any other record is read once, only for
// the columns on screen, and after the matrix's own counts.
import { afterEach, describe, expect, it } from 'vitest';
import type { CountState } from '../../src/ui/screens/count/count.js';
import { demoPages, useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo({ frozen: true });
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const lines = (frame: string) => frame.split('\n');
/** The matrix's heading: UNIT, total, then the value columns on screen. */
const heading = (frame: string) => lines(frame).find((line) => line.startsWith('UNIT ')) ?? '';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The reads of single records of `resource` in the demo's log, from `from` on: what names cost. */
const reads = (resource: string, from: number) =>
  demo.region
    .requestLog()
    .slice(from)
    .filter((line) => new RegExp(`^GET /${resource}/${UUID}$`).test(line));
/** A short id with no name before it: a header still waiting for its name. */
const BARE_ID = /(^|\s)[0-9a-f]{8}…/;
const state = (mounted: Mounted) => mounted.navigator.top()!.state as CountState;

/** Opens `:count …` at 80×24 and waits until every cell has answered. */
async function matrix(question: string): Promise<{ frame: string; from: number }> {
  ui = await mount(demo.region, { rows: 24 });
  ui.navigator.resize(80, 24);
  const from = demo.region.requestLog().length;
  await ui.press(':', `count ${question}`, KEY.enter);
  const frame = await ui.waitFor(
    (f) => / · \d+ answered/.test(f) && state(ui!).loading === undefined && state(ui!).plan !== undefined,
    'the counted matrix',
  );
  return { frame, from };
}

describe('names beside ids in the count matrix at 80×24', () => {
  it("count users by role_id: each role's name beside a short id in its header, read only for the columns on screen", async () => {
    const roles = await demoPages(demo.region, '/roles');
    const { from } = await matrix('users by role_id');
    const named = await ui!.waitFor(
      (f) => roles.some((role) => heading(f).includes(role.name.slice(0, 6))) && !BARE_ID.test(heading(f)),
      'every role on screen named',
    );
    expect(lines(named).every((line) => line.length <= 80)).toBe(true);
    const shown = roles.filter((role) => heading(named).includes(`· ${role.id.slice(0, 4)}`));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    // Each header shown: the start of the role's name, then its id, short.
    for (const role of shown)
      expect(heading(named)).toMatch(new RegExp(`${role.name.slice(0, 6)}[^·]* · ${role.id.slice(0, 4)}`));
    // Whole ids are never drawn; names were read for the columns on screen (and the one the room ends in), not for all seven.
    expect(heading(named)).not.toMatch(new RegExp(UUID));
    expect(reads('roles', from).length).toBeLessThan(roles.length);
    expect(reads('roles', from).length).toBeLessThanOrEqual(shown.length + 1);
  });

  it('count protection-groups by policy_id: name reads stay bounded by the columns shown, each id read once, after the counts', async () => {
    const { from } = await matrix('protection-groups by policy_id plan cells');
    const values = state(ui!).plan!.columns.length;
    expect(values).toBeGreaterThan(8);
    const first = await ui!.waitFor(
      (f) => / · [0-9a-f]{4}/.test(heading(f)) && !BARE_ID.test(heading(f)),
      'every policy on screen named',
    );
    const before = reads('policies', from);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBe((heading(first).match(/ · /g) ?? []).length);
    // Behind every count the matrix had queued when it asked: the names went out after its cells.
    const log = demo.region.requestLog().slice(from);
    const cells = log
      .map((line, index) => (line.startsWith('GET /protection-groups?') ? index : -1))
      .filter((index) => index >= 0);
    expect(log.findIndex((line) => line.startsWith('GET /policies/'))).toBeGreaterThan(
      cells[Math.floor(cells.length * 0.9)]!,
    );
    // Scrolled to the last column, one read more per column that comes on screen, never one twice.
    for (let i = 0; i < values; i++) await ui!.press('>');
    await ui!.waitFor(
      () => (state(ui!).valueNames.size ?? 0) >= 1 && reads('policies', from).length > before.length,
      'the names of the columns scrolled to',
    );
    const after = reads('policies', from);
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBeLessThanOrEqual(values);
  });

  it('count users by organizational_unit_id: units are named from the tree, with no request per value', async () => {
    const { from } = await matrix('users by organizational_unit_id');
    const names = demo.region.units.map((unit) => unit.name);
    const named = await ui!.waitFor(
      (f) => names.some((name) => heading(f).includes(`${name.slice(0, 5)}`) && / · [0-9a-f]{4}/.test(heading(f))),
      'a unit named in a header',
    );
    expect(heading(named)).toMatch(/\S · [0-9a-f]{4}/);
    for (let i = 0; i < 5; i++) await ui!.press('>');
    await ui!.waitFor((f) => / · [0-9a-f]{4}/.test(heading(f)), 'units named further on');
    expect(reads('organizational-units', from)).toEqual([]);
  });
});
