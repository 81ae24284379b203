// Home: every resource the index offers. `/` moves into the filter (letters are keys until then, so the
// global ones work here as anywhere); Enter lists a resource, Tab shows its operations.
import { fuzzyFilter } from '../../fuzzy.js';
import { editText, MOVE_KEYS, moveCursor } from '../../keys.js';
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
  /** The filter has the focus: letters type into it. */
  editing: boolean;
  cursor: number;
}

const editing = (state: CatalogState) => state.editing;
const idle = (state: CatalogState) => !state.editing;

function rows(services: Services, state: CatalogState) {
  const resources = services.catalogOf()?.resources ?? [];
  return state.filter ? fuzzyFilter(state.filter, resources, (r) => r.name) : resources;
}

function chosen(ctx: ScreenContext<CatalogState>) {
  return rows(ctx.services, ctx.state)[ctx.state.cursor];
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
  init: () => ({ filter: '', editing: false, cursor: 0 }),
  start: (ctx) => void load(ctx),
  crumb: () => 'home',
  typing: editing,
  bindings: [
    {
      keys: ['/'],
      help: 'filter the resources by name (Enter opens the one chosen, Esc clears)',
      hint: '/ filter',
      when: idle,
      run: (ctx) => ctx.update({ editing: true }),
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type the filter (Backspace on an empty one leaves it)',
      when: editing,
      run: (ctx, key) =>
        ctx.update((s) =>
          key.name === 'backspace' && !s.filter
            ? { editing: false }
            : { filter: editText(s.filter, key) ?? s.filter, cursor: 0 },
        ),
    },
    {
      keys: ['escape'],
      help: 'clear the filter',
      hint: 'Esc clears',
      when: (state) => state.editing || state.filter !== '',
      run: (ctx) => ctx.update({ filter: '', editing: false, cursor: 0 }),
    },
    // Home has nothing to go back to.
    { keys: ['escape', 'backspace'], help: 'nothing to go back to', when: idle, run: () => undefined },
    {
      keys: [...MOVE_KEYS],
      help: 'move (j k while not typing the filter)',
      hint: '↑↓ move',
      run: (ctx, key) =>
        ctx.update((s) => ({ cursor: moveCursor(s.cursor, rows(ctx.services, s).length, key, ctx.bodyHeight() - 1) })),
    },
    {
      keys: ['return'],
      help: "open the resource's list (:name vN for another version)",
      hint: 'Enter open',
      run: (ctx) => {
        const resource = chosen(ctx);
        ctx.update({ editing: false });
        if (resource)
          ctx.nav.open('list', {
            origin: ctx.services.origin(),
            source: { kind: 'resource', resource: resource.name },
          });
      },
    },
    {
      keys: ['tab', 'right'],
      help: 'operations the index offers for the resource: form, preview, confirm, response, task',
      hint: 'Tab operations',
      run: (ctx) => {
        const resource = chosen(ctx);
        ctx.update({ editing: false });
        if (resource)
          ctx.nav.open('operations', {
            origin: ctx.services.origin(),
            resource: resource.name,
            version: resource.defaultVersion,
          });
      },
    },
  ],
  View: ({ state, ctx, height, width }) => (
    <CatalogView
      resources={rows(ctx.services, state)}
      total={ctx.services.catalogOf()?.resources.length ?? 0}
      filter={state.filter}
      editing={state.editing}
      cursor={state.cursor}
      height={height}
      columns={width}
    />
  ),
};
