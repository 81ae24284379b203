import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function catalogIndex(): Promise<Record<string, { supported_versions: string[] }>> {
  const response = await fetch(`${demo.region.baseUrl}/`, {
    headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
  });
  return (await response.json()) as Record<string, { supported_versions: string[] }>;
}

describe('catalog (home)', () => {
  it('lists every resource of the index with its versions, and a header with the context', async () => {
    ui = await mount(demo.region);
    const index = await catalogIndex();
    const names = Object.keys(index).filter((k) => !k.startsWith('_'));
    const frame = await ui.waitFor((f) => names.every((n) => f.includes(n)), 'every resource');
    const userVersions = index['users']?.supported_versions ?? [];
    expect(userVersions.length).toBeGreaterThan(1);
    const usersLine = frame.split('\n').find((l) => / users /.test(` ${l.replace('›', ' ')} `)) ?? '';
    for (const v of userVersions) expect(usersLine).toContain(v);
    expect(usersLine).toContain('list ✓');
    expect(frame).toContain(new URL(demo.region.baseUrl).host);
    expect(frame).toContain('ada.lovelace@demo.example');
    expect(frame).toMatch(/exp \d+h/);
    expect(frame).toContain('[READ-ONLY]');
    expect(frame).toMatch(/1 requests · last \d+ ms/);
  });

  it('/ moves into the filter, Backspace edits, Enter opens the list', async () => {
    ui = await mount(demo.region);
    await ui.waitFor((f) => f.includes('10/10 resources'), 'the catalog');
    await ui.press('/', 'tas');
    let frame = await ui.waitFor((f) => f.includes('filter: tas'), 'the filter');
    expect(frame).toContain('› tasks');
    expect(frame).not.toContain('users');
    await ui.press(KEY.backspace, KEY.backspace, KEY.backspace, 'organiz');
    frame = await ui.waitFor((f) => f.includes('filter: organiz'), 'the edited filter');
    expect(frame).toContain('› organizational-units');
    await ui.press(KEY.enter);
    frame = await ui.waitFor((f) => f.includes('home › organizational-units@v1') && /page 1/.test(f), 'the list');
    expect(frame).toContain('Acme Corp');
  });

  it('letters are keys until / : o, T and E work on home; ? starts with the home keys, then the global ones; q quits', async () => {
    ui = await mount(demo.region);
    await ui.waitFor((f) => f.includes('10/10 resources'), 'the catalog');
    await ui.press('o');
    await ui.waitFor((f) => /\(\d+ units\)/.test(f), 'the unit picker');
    await ui.press(KEY.escape);
    await ui.waitFor((f) => f.includes('10/10 resources'), 'home again');
    await ui.press('E');
    await ui.waitFor((f) => f.includes('home › last exchange'), 'the last exchange');
    await ui.press(KEY.escape);
    await ui.press('T');
    await ui.waitFor((f) => f.includes('no trail is being kept'), 'the trail notice');
    expect(ui.frame()).not.toContain('filter: ');

    await ui.press('?');
    const help = await ui.waitFor((f) => f.includes('Esc or ? closes'), 'help');
    const lines = help.split('\n').map((line) => line.trim());
    const home = lines.findIndex((line) => line === 'catalog (home)');
    const everywhere = lines.findIndex((line) => line === 'everywhere');
    expect(home).toBeGreaterThan(-1);
    expect(everywhere).toBeGreaterThan(home);
    expect(lines.slice(home, everywhere).join('\n')).toContain('filter the resources by name');
    expect(help).not.toContain('next / previous page');
    await ui.press(KEY.escape);
    await ui.waitFor((f) => !f.includes('? closes'), 'help closed');
    await ui.press('q');
    expect(ui.quits).toBe(1);
  });

  it('shows an API error with its status and hint in a panel, and stays usable', async () => {
    ui = await mount(demo.region, { token: demo.otherRegion.tokens.personal });
    const frame = await ui.waitFor((f) => /\b401\b/.test(f) && /hint: /.test(f), 'the error panel');
    expect(frame).toMatch(/\b401\b/);
    await ui.press('?');
    await ui.waitFor((f) => f.includes('Esc or ? closes'), 'help still opens');
  });
});
