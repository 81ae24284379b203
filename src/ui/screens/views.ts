// Saved views in the explorer (`:view NAME`, `V`): a view is a saved dpx command line (`dpx view save`),
// opened as the screen it describes — `list` as a list with its filter, unit and window (`--ou all`: the
// merged list), `count` as the count matrix, `xray` as the x-ray of the record it names. A view of any
// other command says how to run it.
import { parseArgs } from 'node:util';
import { UsageError } from '../../api/errors.js';
import { isObject } from '../../api/json.js';
import { findResource } from '../../api/hal/catalog.js';
import { findReadOperation } from '../../api/hal/operation.js';
import { readWindow, timeFieldFor, windowFilter } from '../../api/hal/time-window.js';
import { directoryOf } from '../../api/fanout/unit-names.js';
import { checkView } from '../../config/view-policy.js';
import type { SavedView } from '../../config/views.js';
import type { Choice } from '../components/Choices.js';
import { noticeOf } from '../nav/problems.js';
import type { ScreenContext } from '../nav/screen.js';

type Ctx = ScreenContext<unknown>;

/** The options of a saved command line the explorer reads; the rest (output, fields) are the command line's. */
const OPTIONS = {
  profile: { type: 'string' },
  ou: { type: 'string' },
  filter: { type: 'string' },
  version: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'time-field': { type: 'string' },
  by: { type: 'string' },
  depth: { type: 'string' },
  sort: { type: 'string' },
  nonzero: { type: 'boolean' },
  plan: { type: 'string' },
  output: { type: 'string', short: 'o' },
  fields: { type: 'string' },
} as const;

/** What a view may hold that a screen of the explorer does not show: said, not dropped without a word. */
const ONLY_ON_THE_COMMAND_LINE = ['profiles', 'group-by', 'values', 'max-items', 'all', 'page', 'page-size'];

/** `dpx list tasks --ou all`: a view in one line. */
const viewLine = (view: SavedView) => `dpx ${view.argv.join(' ')}`;

/** The unit `--ou` names, by the unit tree (an id the tree does not hold is taken as given). */
async function unitOf(ctx: Ctx, text: string): Promise<string> {
  const units = await ctx.services.units();
  return (units && directoryOf(units).resolve(text)?.id) ?? text;
}

/** The saved filter with the saved window (`--since 24h`, read now) ANDed in on the resource's time field. */
function filterOf(
  resource: string,
  version: string,
  options: { filter?: string; since?: string; until?: string; 'time-field'?: string },
): string | undefined {
  const window = readWindow(options.since, options.until);
  if (!window) return options.filter;
  const field = options['time-field'] ?? timeFieldFor(resource, version);
  if (!field)
    throw new UsageError(`${resource} has no time field to put --since/--until on`, 'give the view a --time-field');
  return windowFilter(options.filter, field, window);
}

/** Opens the screen a saved view describes, on its profile. */
async function openView(ctx: Ctx, view: SavedView): Promise<void> {
  try {
    const { values: options, positionals } = parseArgs({
      args: view.argv,
      options: OPTIONS,
      strict: false,
      allowPositionals: true,
    });
    const [command, resourceName, id] = positionals as string[];
    // A view file may come from someone else: the same allow-list as `dpx view run` checks it here.
    checkView({ command: command ?? 'explorer', options: Object.keys(options) }, view.name);
    const text = (name: keyof typeof OPTIONS) => (typeof options[name] === 'string' ? options[name] : undefined);
    const skipped = ONLY_ON_THE_COMMAND_LINE.filter((name) => options[name] !== undefined);
    const profile = text('profile');
    if (profile && profile !== ctx.services.connection.profile) {
      await ctx.nav.switchProfile(profile);
      if (ctx.services.connection.profile !== profile) return;
    }
    const catalog = await ctx.services.catalog();
    const resource = resourceName ? findResource(catalog, resourceName) : undefined;
    if (!resource || !['list', 'count', 'xray'].includes(command ?? '')) {
      return ctx.nav.notify(
        `dpx view run ${view.name} runs it: the explorer opens list, count and xray views, and this one is "${viewLine(view)}"`,
      );
    }
    if (skipped.length > 0)
      ctx.nav.notify(
        `view ${view.name}: ${skipped.map((name) => `--${name}`).join(', ')} not applied here; dpx view run ${view.name} runs it whole`,
      );
    const version = text('version') ?? resource.defaultVersion;
    const ouText = text('ou');
    if (command === 'count') {
      // The count screen puts the window on itself, and counts here where the server refuses it as a filter.
      const depth = text('depth');
      const plan = text('plan');
      return ctx.nav.open('count', {
        resource: resource.name,
        ...(text('by') ? { by: text('by')! } : {}),
        ...(text('filter') ? { filter: text('filter')! } : {}),
        ...(text('since') ? { since: text('since')! } : {}),
        ...(text('until') ? { until: text('until')! } : {}),
        ...(depth !== undefined && Number.isInteger(Number(depth)) ? { depth: Number(depth) } : {}),
        ...(text('sort') ? { sort: text('sort')! } : {}),
        ...(options.nonzero === true ? { nonzero: true } : {}),
        ...(plan === 'cells' || plan === 'scan' ? { forcedPlan: plan } : {}),
      });
    }
    const filter = filterOf(resource.name, version, { ...options } as Parameters<typeof filterOf>[2]);
    if (command === 'list' && ouText === 'all')
      return ctx.nav.open('merged-list', {
        origin: ctx.services.origin(),
        resource: resource.name,
        ...(filter ? { filter } : {}),
      });
    const origin = {
      connection: ctx.services.connection,
      ou: ouText ? await unitOf(ctx, ouText) : ctx.services.connection.session.ou,
    };
    if (command === 'list')
      return ctx.nav.open('list', {
        origin,
        source: { kind: 'resource', resource: resource.name, version },
        ...(filter ? { serverFilter: filter } : {}),
        label: `view ${view.name}`,
      });
    const read = findReadOperation(resource, version);
    if (!read || !id)
      return ctx.nav.notify(`view ${view.name}: ${resource.name} ${version} has no record to read by id`);
    const request = await ctx.services.connection.session.prepare({
      resource: resource.name,
      version: read.version,
      operationId: read.operation.id,
      variables: { [read.operation.pathVariables[0]!]: id },
      ou: origin.ou ?? null,
    });
    const record = (await ctx.services.connection.session.send(request)).body;
    if (!isObject(record)) return ctx.nav.notify(`view ${view.name}: ${resource.name} ${id} is not one record`);
    ctx.nav.open('xray', { origin, resource: resource.name, version: read.version, record });
  } catch (error) {
    ctx.nav.notify(noticeOf(`view ${view.name} not opened`, error));
  }
}

/** The saved views as choices; a file that is no view is named with its problem. */
export function viewChoices(ctx: Ctx, prefix = ''): Choice[] {
  return ctx.services.views().map((view) =>
    'problem' in view
      ? {
          label: `${prefix}${view.name}`,
          detail: view.problem,
          run: () => ctx.nav.notify(`view ${view.name}: ${view.problem}`),
        }
      : { label: `${prefix}${view.name}`, detail: viewLine(view), run: () => void openView(ctx, view) },
  );
}

/** `V`: the saved views to choose from, read again from the config folder. */
export async function listViews(ctx: Ctx): Promise<void> {
  await ctx.services.refreshConfig().catch(() => undefined);
  const choices = viewChoices(ctx);
  if (choices.length === 0)
    return ctx.nav.notify('no saved views: dpx view save NAME -- list tasks --since 24h saves one');
  ctx.nav.open('choose', { title: 'saved views (dpx view save NAME -- <command>)', entries: choices });
}
