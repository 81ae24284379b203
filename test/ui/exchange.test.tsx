// E: the last request and its response as they went over the wire, with the credentials masked.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

describe('the last exchange', () => {
  it('shows the request line and headers, the status, the response headers and the raw body, never the token', async () => {
    ui = await mount(demo.region, { rows: 60 });
    await ui.press(':', 'users', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the users list');
    // Ids alone, and every request already sent answered (the unit tree, names): the page asked again is
    // then the last request sent.
    await ui.press('N');
    await ui.waitFor(
      () => ui!.session.traffic.inFlight === 0 && ui!.session.traffic.waiting === 0,
      'nothing in flight',
    );
    const before = ui.session.traffic.requests;
    await ui.press('r');
    await ui.waitFor(
      () => ui!.session.traffic.requests > before && ui!.session.traffic.inFlight === 0,
      'the page asked again',
    );
    await ui.press('E');
    const frame = await ui.waitFor((f) => f.includes('last exchange'), 'the exchange');
    expect(frame).toMatch(new RegExp(`^GET ${demo.region.baseUrl}/users`, 'm'));
    expect(frame).toMatch(/^ {2}authorization: Bearer \*\*\*$/m);
    expect(frame).toMatch(/^ {2}accept: application\/api\.service\.users=v\d\+json$/m);
    expect(frame).toMatch(/^200 OK · \d+ ms$/m);
    expect(frame).toMatch(/^ {2}etag: W\//m);
    expect(frame).toContain('"_embedded"');
    expect(frame).not.toContain(demo.region.tokens.personal);
    await ui.press(KEY.escape);
    await ui.waitFor((f) => !f.includes('last exchange'), 'the list again');
  });
});
