// The explorer on a list paged only by an RFC 8288 Link header (the demo's audit trail with
// `linkHeaderPaging`, 75 records, 20 to a page): n, p, g and G move by the header's links, and moving
// down loads page after page to the last record.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo({ scale: 0.25, linkHeaderPaging: ['audit-trails'] });
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function openAuditTrail(): Promise<Mounted> {
  const mounted = await mount(demo.region, { rows: 30, context: { pageSize: 20 } });
  await mounted.waitFor((f) => f.includes('resources'), 'the catalog');
  await mounted.press(':', 'audit-trails', KEY.enter);
  await mounted.waitFor((f) => f.includes('home › audit-trails@') && /page 1\b/.test(f), 'the audit-trails list');
  return mounted;
}

describe('a list paged by its Link header, in the explorer', () => {
  it('pages with n, p, g and G by the links of the header', async () => {
    ui = await openAuditTrail();
    await ui.press('n');
    await ui.waitFor((f) => /page 2\b/.test(f), 'page 2');
    await ui.press('G');
    const last = await ui.waitFor(
      (f) => /page 4\b/.test(f) && /· end/.test(f),
      "the last page, by the header's last link",
    );
    expect(last).not.toMatch(/page [123]\b/);
    await ui.press('p');
    await ui.waitFor((f) => /page 3\b/.test(f), "page 3, by the header's prev link");
    await ui.press('g');
    await ui.waitFor((f) => /page 1\b/.test(f), "page 1, by the header's first link");
  });

  it("loads page after page by the header's next links, down to the 75th record", async () => {
    ui = await openAuditTrail();
    const loaded = (frame: string) => Number(/(\d+) loaded/.exec(frame)?.[1] ?? 0);
    const counts: number[] = [];
    while (!/· end/.test(ui.frame()) || loaded(ui.frame()) < 75) {
      const before = loaded(ui.frame());
      await ui.press(KEY.end);
      counts.push(
        loaded(
          await ui.waitFor((f) => loaded(f) > before || /· end/.test(f), "the next page, by the header's next link"),
        ),
      );
    }
    expect(ui.frame()).toMatch(/\b75 loaded · end/);
    expect(counts.every((count) => count <= 75)).toBe(true);
    const requests = ui.session.stats.requests;
    await ui.press(KEY.end);
    await new Promise((r) => setTimeout(r, 100));
    expect(ui.session.stats.requests).toBe(requests);
  });
});
