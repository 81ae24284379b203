// The explorer's state model without ink: the navigator and its screens driven by keys alone, against
// the demo over HTTP. What React draws is the state these tests read.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import type { Key } from '../../src/ui/keys.js';
import { toKeys } from '../../src/ui/keys.js';
import { Navigator } from '../../src/ui/nav/navigator.js';
import type { ListState } from '../../src/ui/screens/list/state.js';
import type { PreviewState } from '../../src/ui/screens/operations/preview.js';
import type { RecordState } from '../../src/ui/screens/record/state.js';
import { Services } from '../../src/ui/services/services.js';
import { useDemo } from '../helpers/demo.js';
import { SCREENS } from '../../src/ui/registry.js';

const demo = useDemo();
let navigator: Navigator | undefined;
afterEach(() => navigator?.stop());

async function started(): Promise<Navigator> {
  const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, readOnly: true });
  navigator = new Navigator(
    new Services({ connection: { session, token: demo.region.tokens.personal, profile: 'eu' } }),
    { screens: SCREENS, columns: 120, rows: 30, onQuit: () => undefined, watchSeconds: 3600 },
  );
  await navigator.start();
  return navigator;
}

function press(nav: Navigator, ...inputs: string[]): void {
  for (const input of inputs) for (const key of toKeys(input, {}) as Key[]) nav.key(key);
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const top = (nav: Navigator) => nav.top()!;

describe('the navigator without a terminal', () => {
  it('opens a list from the palette, pages it, opens a record and goes back to the same place', async () => {
    const nav = await started();
    press(nav, ':', 'tasks', '\r');
    const list = await until(
      () =>
        top(nav).kind === 'list' && (top(nav).state as ListState).pages.length > 1
          ? (top(nav).state as ListState)
          : undefined,
      'the tasks list',
    );
    expect(list.resource).toBe('tasks');
    press(nav, 'jjj');
    expect((top(nav).state as ListState).cursor).toBe(3);
    press(nav, '\r');
    expect(top(nav).kind).toBe('record');
    press(nav, '\x1b');
    expect(top(nav).kind).toBe('list');
    expect((top(nav).state as ListState).cursor).toBe(3);
    expect(nav.getState().stack.map((entry) => entry.kind)).toEqual(['catalog', 'list']);
  });

  it('a record keeps the unit it was read in: after the OU changes, x acts on it in that unit', async () => {
    const nav = await started();
    const units = await nav.services.units();
    const [a, b] = [units![1]!, units![2]!];
    nav.setOu(a.id, a.name);
    press(nav, ':', 'tasks', '\r');
    await until(() => top(nav).kind === 'list' && (top(nav).state as ListState).pages.length > 0, 'the list in unit A');
    // Ids alone: the names the list would read in the background are no exchange this test looks for.
    press(nav, 'N', '\r');
    const record = top(nav).state as RecordState;
    expect(record.origin.ou).toBe(a.id);

    nav.setOu(b.id, b.name);
    expect(nav.services.connection.session.ou).toBe(b.id);
    // The list below reloads in B; the record on top stays A's.
    press(nav, 'x');
    await until(() => top(nav).kind === 'operations', 'the operations');
    press(nav, 'j', '\r');
    await until(() => top(nav).kind === 'operation-form', 'the form');
    press(nav, 'p');
    const preview = await until(
      () => (top(nav).kind === 'request-preview' ? (top(nav).state as PreviewState) : undefined),
      'the preview',
    );
    expect(preview.request.ou).toBe(a.id);
    expect(preview.request.headers[nav.services.connection.session.ouHeader.toLowerCase()]).toBe(a.id);
    expect(nav.getState().stack.map((entry) => entry.kind)).toEqual([
      'catalog',
      'list',
      'record',
      'operations',
      'operation-form',
      'request-preview',
    ]);
    const list = nav.getState().stack[1]!.state as ListState;
    expect(list.origin.ou).toBe(b.id);
    // Sent, it goes out with A's header. (The list below reads B meanwhile, behind the screen in front:
    // its requests are let finish first, so that the last exchange is the write.)
    const { session } = nav.services.connection;
    await until(() => session.traffic.inFlight === 0 && session.traffic.waiting === 0, 'the list below read');
    press(nav, '\r');
    await until(() => top(nav).kind === 'response' && !top(nav).state.loading, 'the response');
    expect(
      nav.services.connection.session.lastExchange?.request.headers[
        nav.services.connection.session.ouHeader.toLowerCase()
      ],
    ).toBe(a.id);
  });

  it('the index asked for before the screens exist: its failure is what they show, asked for once', async () => {
    let sent = 0;
    const session = new Session({
      baseUrl: demo.region.baseUrl,
      token: demo.region.tokens.expired,
      onExchange: () => (sent += 1),
    });
    const services = new Services({ connection: { session } });
    services.askCatalogEarly();
    await expect(services.catalog()).rejects.toThrow(/401/);
    navigator = new Navigator(services, {
      screens: SCREENS,
      columns: 120,
      rows: 30,
      onQuit: () => undefined,
      watchSeconds: 3600,
    });
    const starting = navigator.start();
    services.screensAsked();
    await starting;
    const catalog = await until(() => (top(navigator!).state.error ? top(navigator!).state : undefined), 'the error');
    expect(catalog.error?.title).toMatch(/401/);
    expect(sent).toBe(1);
    // Asked again afterwards (a retry), it goes to the control plane again.
    await expect(services.catalog()).rejects.toThrow(/401/);
    expect(sent).toBe(2);
  });

  it("the help is the screen's own keys, then the global ones, each binding named", () => {
    const nav = new Navigator(
      new Services({ connection: { session: new Session({ baseUrl: 'http://127.0.0.1:9' }) } }),
      { screens: SCREENS, columns: 80, rows: 24, onQuit: () => undefined },
    );
    nav.open('exchange', { origin: nav.services.origin() });
    nav.open('help', {});
    const tables = nav.keyTables();
    expect(tables.map((table) => table.title)).toEqual(['last exchange (E)', 'everywhere']);
    for (const table of tables) for (const binding of table.bindings) expect(binding.help.length).toBeGreaterThan(3);
  });
});
