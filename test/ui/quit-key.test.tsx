// `q` means the same on every screen (issue 38): it quits dpx, from the operations list and the help as
// from anywhere else, and the help says so; in a text field it types.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

describe('q', () => {
  it('quits from the operations list', async () => {
    ui = await mount(demo.region);
    await ui.waitFor((f) => f.includes('10/10 resources'), 'the catalog');
    await ui.press(KEY.tab);
    await ui.waitFor((f) => f.includes('Operations of'), 'the operations');
    await ui.press('q');
    expect(ui.quits).toBe(1);
  });

  it('quits from the help, which says the rule', async () => {
    // Tall enough for the whole help, whose lines wrap at the width.
    ui = await mount(demo.region, { rows: 60 });
    await ui.waitFor((f) => f.includes('10/10 resources'), 'the catalog');
    await ui.press('?');
    const help = await ui.waitFor((f) => f.includes('Esc or ? closes'), 'help');
    expect(help).toContain('q quits on every screen');
    await ui.press('q');
    expect(ui.quits).toBe(1);
  });

  it('types q in a text field', async () => {
    ui = await mount(demo.region);
    await ui.waitFor((f) => f.includes('10/10 resources'), 'the catalog');
    await ui.press(':');
    await ui.waitFor((f) => f.includes('Tab completes'), 'the palette');
    await ui.press('q');
    await ui.waitFor((f) => f.includes('› q'), 'q typed');
    expect(ui.quits).toBe(0);
  });
});
