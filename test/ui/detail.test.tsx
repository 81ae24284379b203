import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function firstTask(): Promise<Record<string, unknown>> {
  const response = await fetch(`${demo.region.baseUrl}/tasks?limit=1`, {
    headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
  });
  const body = (await response.json()) as { _embedded: { items: Record<string, unknown>[] } };
  const task = body._embedded.items[0];
  if (!task) throw new Error('the demo has no task');
  return task;
}

async function openFirstTask(): Promise<Mounted> {
  const mounted = await mount(demo.region, { rows: 40 });
  await mounted.waitFor((f) => f.includes('resources'), 'the catalog');
  await mounted.press(':tasks', KEY.enter);
  await mounted.waitFor((f) => /page 1/.test(f), 'the tasks list');
  await mounted.press(KEY.enter);
  await mounted.waitFor((f) => f.includes('fields ·'), 'the detail');
  return mounted;
}

const cursorLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

describe('detail view', () => {
  it('shows the record as a tree whose nested values fold, its links, and raw JSON with y', async () => {
    ui = await openFirstTask();
    const task = await firstTask();
    const nested = Object.entries(task).find(
      ([k, v]) => !k.startsWith('_') && v && typeof v === 'object' && !Array.isArray(v),
    );
    expect(nested).toBeDefined();
    const [nestedKey, nestedValue] = nested!;
    const childKey = Object.keys(nestedValue as object)[0] ?? '';
    let frame = ui.frame();
    expect(frame).toContain(`id: "${String(task['id'])}"`);
    expect(frame).toContain(`▾ ${nestedKey}`);
    expect(frame).toMatch(new RegExp(`^\\s{5}${childKey}: `, 'm'));
    const fieldCount = Object.keys(task).filter((k) => k !== '_links').length;
    const index = Object.keys(task)
      .filter((k) => k !== '_links')
      .indexOf(nestedKey);
    await ui.press(KEY.down.repeat(index), KEY.enter);
    frame = await ui.waitFor((f) => f.includes(`▸ ${nestedKey}`), 'the folded value');
    expect(frame).not.toMatch(new RegExp(`^\\s{5}${childKey}: `, 'm'));
    const links = Object.keys(task['_links'] as object);
    for (const rel of links) expect(frame).toContain(rel);
    expect(frame).toContain(`${fieldCount} fields · ${links.length} links`);
    await ui.press('y');
    frame = await ui.waitFor((f) => f.includes('raw JSON ('), 'raw JSON');
    expect(frame).toContain(`"id": "${String(task['id'])}"`);
    await ui.press('y');
    await ui.waitFor((f) => f.includes('fields ·'), 'the tree again');
  });

  it("follows a link to another resource with that resource's media type, and goes back", async () => {
    ui = await openFirstTask();
    const task = await firstTask();
    const target = (task['_links'] as Record<string, { href: string }>)['organizational_unit'];
    expect(target).toBeDefined();
    await ui.press(KEY.end);
    let frame = ui.frame();
    for (let i = 0; i < 10 && !cursorLine(frame).includes('organizational_unit '); i++) {
      await ui.press(KEY.up);
      frame = ui.frame();
    }
    expect(cursorLine(frame)).toContain(target!.href);
    await ui.press(KEY.enter);
    frame = await ui.waitFor((f) => f.includes('organizational-units@'), 'the linked record');
    expect(frame).toContain(`id: "${String(task['organizational_unit_id'])}"`);
    await ui.press(KEY.escape);
    await ui.waitFor((f) => f.includes('tasks@') && f.includes(`id: "${String(task['id'])}"`), 'the task again');
  });

  it('asks for the variables of a templated operation with a live preview of the URL', async () => {
    ui = await mount(demo.region, { rows: 40 });
    const task = await firstTask();
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    await ui.press(':', 'tasks get');
    await ui.waitFor((f) => /› tasks get_task/.test(f), 'the operation entry');
    await ui.press(KEY.tab);
    await ui.waitFor((f) => f.includes(':tasks get_task'), 'Tab completion');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes('fill in the variables'), 'the variable prompt');
    await ui.press(String(task['id']).slice(0, 8));
    await ui.waitFor((f) => f.includes(`/tasks/${String(task['id']).slice(0, 8)}`), 'the live URL preview');
    await ui.press(String(task['id']).slice(8), KEY.enter);
    await ui.waitFor((f) => f.includes(`id: "${String(task['id'])}"`), 'the record read by the operation');
  });
});

describe('palette and organizational units', () => {
  it(':users v1 opens that version; :ou <name> scopes every request to the unit', async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    await ui.press(':users v1', KEY.enter);
    await ui.waitFor((f) => f.includes('home › users@v1') && /page 1\/\d+/.test(f), 'users v1');
    const everything = (ui.frame().match(/([\d,]+) items/) ?? [])[1];
    await ui.press(':ou ');
    await ui.waitFor((f) => f.includes('ou Acme Corp'), 'units in the palette');
    await ui.press('Acme', KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('OU Acme Corp') && /page 1\/\d+/.test(f), 'the scoped list');
    const scoped = (frame.match(/([\d,]+) items/) ?? [])[1];
    expect(Number(scoped?.replace(/,/g, ''))).toBeLessThan(Number(everything?.replace(/,/g, '')));
  });

  it('o opens the picker from the unit resource; a typed UUID works too; the header shows the choice', async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    await ui.press(':tasks', KEY.enter);
    await ui.waitFor((f) => /page 1/.test(f), 'tasks');
    await ui.press('o');
    let frame = await ui.waitFor((f) => /\(\d+ units\)/.test(f), 'the unit picker');
    expect(frame).toContain('Globex Health');
    await ui.press('globex', KEY.enter);
    frame = await ui.waitFor((f) => f.includes('OU Globex Health') && /page 1/.test(f), 'the OU in the header');
    const uuid = ui.session.ou!;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    await ui.press('o', uuid.toUpperCase().toLowerCase(), KEY.enter);
    await ui.waitFor((f) => f.includes(`OU set to`), 'the UUID accepted');
    expect(ui.session.ou).toBe(uuid);
    await ui.press('o', KEY.enter);
    await ui.waitFor((f) => f.includes('OU none'), 'the OU cleared');
  });
});
