// Home: every resource the index offers. Typing filters it; Enter lists a resource, Tab shows its
// operations.
import { fuzzyFilter } from '../../fuzzy.js';
import { editText, moveCursor } from '../../keys.js';
import { errorInfo, warningInfo } from '../../nav/problems.js';
import { TEXT, type ScreenBase, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import type { Services } from '../../services/services.js';
import { CatalogView } from './CatalogView.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    catalog: Record<string, never>;
  }
}

export interface CatalogState extends ScreenBase {
  filter: string;
  cursor: number;
}

function rows(services: Services, state: CatalogState) {
  const resources = services.catalogOf()?.resources ?? [];
  return state.filter ? fuzzyFilter(state.filter, resources, (r) => r.name) : resources;
}

function chosen(ctx: ScreenContext<CatalogState>) {
  return rows(ctx.services, ctx.state)[ctx.state.cursor];
}

/** Letters type into the filter, so a name can start with any of them; q quits only while it is empty. */
function types(state: CatalogState, char: string): boolean {
  return char !== ':' && char !== '?' && char !== ' ' && !(char === 'q' && !state.filter);
}

async function load(ctx: ScreenContext<CatalogState>): Promise<void> {
  ctx.update({ loading: 'reading the discovery index', error: undefined });
  try {
    const catalog = await ctx.services.catalog();
    ctx.update({ loading: undefined, error: warningInfo(catalog.warnings) });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

export const catalogScreen: ScreenModule<CatalogState, Record<string, never>> = {
  title: 'catalog (home)',
  init: () => ({ filter: '', cursor: 0 }),
  start: (ctx) => void load(ctx),
  crumb: () => 'home',
  bindings: [
    {
      keys: [TEXT],
      help: 'type to filter the resources (q quits while nothing is typed; :ou picks the OU)',
      hint: 'type to filter',
      when: (state, key) => types(state, key.char),
      run: (ctx, key) => ctx.update((s) => ({ filter: s.filter + key.char, cursor: 0 })),
    },
    // Home has nothing to go back to: Backspace and Esc only ever edit the filter here.
    { keys: ['backspace', 'ctrl-u'], help: 'edit the filter', run: (ctx, key) => ctx.update((s) => ({ filter: editText(s.filter, key) ?? s.filter, cursor: 0 })) },
    { keys: ['escape'], help: 'clear the filter', hint: 'Esc clears', when: (state) => state.filter !== '', run: (ctx) => ctx.update({ filter: '', cursor: 0 }) },
    { keys: ['escape'], help: 'nothing to go back to', when: (state) => state.filter === '', run: () => undefined },
    {
      keys: ['up', 'down', 'pageup', 'pagedown', 'home', 'end'],
      help: 'move',
      hint: '↑↓ move',
      run: (ctx, key) => ctx.update((s) => ({ cursor: moveCursor(s.cursor, rows(ctx.services, s).length, key, ctx.bodyHeight() - 1) })),
    },
    {
      keys: ['return'],
      help: 'open the resource\'s list (:name vN for another version)',
      hint: 'Enter open',
      run: (ctx) => {
        const resource = chosen(ctx);
        if (resource) ctx.nav.open('list', { origin: ctx.services.origin(), source: { kind: 'resource', resource: resource.name } });
      },
    },
    {
      keys: ['tab', 'right'],
      help: 'operations the index offers for the resource: form, preview, confirm, response, task',
      hint: 'Tab operations',
      run: (ctx) => {
        const resource = chosen(ctx);
        if (resource) ctx.nav.open('operations', { origin: ctx.services.origin(), resource: resource.name, version: resource.defaultVersion });
      },
    },
    { keys: ['q'], help: 'quit', hint: 'q quit', when: (state) => state.filter === '', run: (ctx) => ctx.nav.quit() },
  ],
  View: ({ state, ctx, height, width }) => (
    <CatalogView resources={rows(ctx.services, state)} total={ctx.services.catalogOf()?.resources.length ?? 0} filter={state.filter}
      cursor={state.cursor} height={height} columns={width} />
  ),
};
