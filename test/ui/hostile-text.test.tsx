// The explorer against a control plane whose names, keys, values and unit names carry ESC/BEL/OSC 52/C1
// and bidi sequences: every screen shows them visible, nothing a terminal would obey reaches the frame.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DemoRegion } from '../../src/demo/server.js';
import { OBEYED, startHostileText } from '../helpers/hostile-text.js';
import type { TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';

let server: TestServer;
let ui: Mounted | undefined;
beforeAll(async () => {
  server = await startHostileText();
});
afterAll(() => server.close());
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

/** Waits for `text`, then checks the whole frame (header, breadcrumb, body, footer) is inert. */
async function shows(mounted: Mounted, text: string, what: string): Promise<string> {
  const frame = await mounted.waitFor((current) => current.includes(text), what);
  expect(frame).not.toMatch(OBEYED);
  return frame;
}

describe('the explorer on hostile text', () => {
  it('shows resource names, keys, values, breadcrumbs and unit names visible on every screen', async () => {
    const region = {
      name: 'hostile',
      baseUrl: server.baseUrl,
      tokens: { personal: 'hostile-test-token' },
    } as unknown as DemoRegion;
    ui = await mount(region, { rows: 40 });
    await shows(ui, 'notes␛]0;pwned␇', 'the catalog with the titled resource');

    await ui.press(':items', KEY.enter);
    await shows(ui, 'Item one␛]0;pwned␇', 'the items list');
    // The hostile field's column is further right: `>` scrolls to it.
    for (let i = 0; i < 7 && !ui.frame().includes('KEY␛]0'); i++) await ui.press('>');
    await shows(ui, 'KEY␛]0', "the hostile field's column");

    await ui.press(KEY.enter);
    const record = await shows(ui, 'fields ·', 'the record');
    expect(record).toContain('key␛]0;pwned␇␛]52;c;cHduZWQ=␇\\u009b31m␡');
    expect(record).toContain('"value\\u001b]0;pwned');
    await ui.press('y');
    await shows(ui, 'raw JSON', 'the raw JSON');
    await ui.press('y');

    await ui.press('o');
    const picker = await shows(ui, 'Global␛]0;pwned␇', 'the unit picker');
    expect(picker).toContain('EMEA␛]52;c;cHduZWQ=␇');
  });

  it("shows a resource's name in the breadcrumb, and a proxy's text/plain error page in the panel and in the last exchange (E), visible", async () => {
    const region = {
      name: 'hostile',
      baseUrl: server.baseUrl,
      tokens: { personal: 'hostile-test-token' },
    } as unknown as DemoRegion;
    ui = await mount(region, { rows: 40 });
    await shows(ui, 'resources', 'the catalog');
    await ui.press('/notes', KEY.enter);
    // The header names it too; the list's own answer does not matter here.
    const crumb = await shows(ui, 'home › notes␛]0;pwned␇', 'the breadcrumb of the titled resource');
    expect(crumb).toMatch(/^notes␛\]0;pwned␇/m);
    await ui.press(KEY.escape, KEY.escape);
    await ui.press(':broken', KEY.enter);
    // The panel runs the message over lines: its continuation lines are indented by two.
    const panel = await ui.waitFor(
      (f) => f.replace(/\n {2}/g, ' ').includes('Bad gateway␛]0;pwned␇'),
      'the error panel',
    );
    expect(panel).not.toMatch(OBEYED);
    await ui.press('E');
    await shows(
      ui,
      'Bad gateway␛]0;pwned␇␛]52;c;cHduZWQ=␇\\u009b31m␡\\u202etxt.exe',
      'the raw body in the last exchange',
    );
  });
});
