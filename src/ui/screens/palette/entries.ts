// What the `:` palette offers for what has been typed: resources, their versions and operations, units,
// profiles, bookmarks, saved views and a few commands. Each provider answers for its own words ("ou", "profile",
// "ctx", "bm"), so a new view adds its entries here without touching the palette itself.
import { findResource } from '../../../api/hal/catalog.js';
import { knownRecordFields } from '../../../api/hal/schemas.js';
import { isListOperation } from '../../../api/hal/operation.js';
import { isUuid, type OrgUnit } from '../../../api/fanout/units.js';
import { directoryOf, pathText } from '../../../api/fanout/unit-names.js';
import type { Choice } from '../../components/Choices.js';
import { fuzzyFilter } from '../../fuzzy.js';
import { writeTrail } from '../trail.js';
import type { ScreenContext } from '../../nav/screen.js';
import { describeBookmark, openBookmark } from '../bookmarks.js';
import { viewChoices } from '../views.js';

/** What the palette offers: its label is what is matched, e.g. "tasks v1" or "ou Acme Corp". */
export type PaletteEntry = Choice;

type Ctx = ScreenContext<unknown>;
type Provider = (ctx: Ctx, query: string) => PaletteEntry[];

const OU_QUERY = /^ou\b/i;
const PROFILE_QUERY = /^(profile|ctx)\b/i;
const BOOKMARK_QUERY = /^(bm|bookmark)\b/i;
const COUNT_QUERY = /^count\b/i;
const MERGED_QUERY = /@/;
const VIEW_QUERY = /^view\b/i;
const WORD_QUERIES = [OU_QUERY, PROFILE_QUERY, BOOKMARK_QUERY, COUNT_QUERY, MERGED_QUERY, VIEW_QUERY];

const isWordQuery = (query: string) => WORD_QUERIES.some((pattern) => pattern.test(query));

/** An operation picked by name: lists open as lists, other reads ask for their variables, writes open their form. */
function runOperation(ctx: Ctx, resourceName: string, version: string, operationId: string): void {
  const catalog = ctx.services.catalogOf();
  const operation =
    catalog &&
    findResource(catalog, resourceName)
      ?.versions.find((v) => v.version === version)
      ?.operations.find((o) => o.id === operationId);
  if (!operation) return;
  const origin = ctx.services.origin();
  if (operation.method !== 'GET')
    return ctx.nav.open('operations', { origin, resource: resourceName, version, operationId });
  // A list under a parent asks for its parent's variables itself.
  if (operation.pathVariables.length === 0 || isListOperation(operation))
    return ctx.nav.open('list', { origin, source: { kind: 'resource', resource: resourceName, version, operationId } });
  ctx.nav.open('template', {
    title: `${resourceName} ${operationId}`,
    href: operation.href,
    variables: operation.pathVariables,
    required: operation.pathVariables,
    submit: (variables) =>
      ctx.nav.open('record', { origin, resource: resourceName, version, read: { operationId, variables } }),
  });
}

const resources: Provider = (ctx, query) => {
  if (isWordQuery(query)) return [];
  const origin = () => ctx.services.origin();
  return (ctx.services.catalogOf()?.resources ?? []).flatMap((resource) => [
    {
      label: resource.name,
      detail: `list, ${resource.defaultVersion}`,
      run: () => ctx.nav.open('list', { origin: origin(), source: { kind: 'resource', resource: resource.name } }),
    },
    ...resource.versions.flatMap((version) => [
      ...(resource.versions.length > 1
        ? [
            {
              label: `${resource.name} ${version.version}`,
              detail: 'list this version',
              run: () =>
                ctx.nav.open('list', {
                  origin: origin(),
                  source: { kind: 'resource', resource: resource.name, version: version.version },
                }),
            },
          ]
        : []),
      ...version.operations.map((operation) => ({
        label: `${resource.name} ${operation.id}`,
        detail: `${operation.method} ${operation.href} (${version.version})`,
        run: () => runOperation(ctx, resource.name, version.version, operation.id),
      })),
    ]),
  ]);
};

const units: Provider = (ctx, query) => {
  if (PROFILE_QUERY.test(query) || BOOKMARK_QUERY.test(query)) return [];
  const picker = { label: 'ou', detail: 'open the OU picker', run: () => ctx.nav.open('ou-picker', {}) };
  if (!OU_QUERY.test(query)) return [{ ...picker, detail: 'choose the organizational unit' }];
  const known = ctx.services.unitsKnown();
  // The units arrive while the palette is open; the palette draws again when they do.
  if (!known && ctx.services.catalogOf())
    void ctx.services.units().then(
      () => ctx.update({}),
      () => undefined,
    );
  const typed = query.replace(OU_QUERY, '').trim();
  const directory = known && directoryOf(known);
  // A name or path typed names its units exactly: they are offered under what was typed, each with its path.
  const exact = typed && directory ? directory.find(typed) : [];
  const entry = (unit: OrgUnit, label: string): PaletteEntry => ({
    label,
    detail: `${pathText(directory!.path(unit.id))} · ${unit.id}`,
    run: () => ctx.nav.setOu(unit.id, unit.name),
  });
  const entries: PaletteEntry[] = [
    ...exact.map((unit) => entry(unit, `ou ${typed}`)),
    ...(known ?? []).filter((unit) => !exact.includes(unit)).map((unit) => entry(unit, `ou ${unit.name}`)),
  ];
  if (isUuid(typed))
    entries.unshift({ label: `ou ${typed}`, detail: 'use this UUID', run: () => ctx.nav.setOu(typed) });
  return [...entries, picker];
};

const profiles: Provider = (ctx, query) => {
  const word = /^ctx\b/i.test(query) ? 'ctx' : 'profile';
  const current = ctx.services.connection.profile;
  const left = new Map(ctx.nav.placesLeft().map((place) => [place.name, place.baseUrl]));
  const choices = ctx.services.profileChoices();
  const entries: PaletteEntry[] = choices.map((choice) => ({
    label: `${word} ${choice.name}`,
    detail: `${choice.baseUrl}${choice.name === current ? ' (in use)' : left.has(choice.name) ? ' (back to where you were)' : ''}`,
    run: () => void ctx.nav.switchProfile(choice.name),
  }));
  // A place left that is no config profile (the demo, a --base-url session) can still be gone back to.
  for (const [name, baseUrl] of left) {
    if (name && !choices.some((choice) => choice.name === name))
      entries.push({
        label: `${word} ${name}`,
        detail: `${baseUrl} (back to where you were)`,
        run: () => void ctx.nav.switchProfile(name),
      });
  }
  if (entries.length === 0 && PROFILE_QUERY.test(query)) {
    entries.push({
      label: word,
      detail: 'no profiles in the config file: dpx profile add NAME --base-url URL',
      run: () => undefined,
    });
  }
  return entries;
};

const bookmarks: Provider = (ctx, query) => {
  if (!BOOKMARK_QUERY.test(query)) return [];
  const saved = ctx.services.bookmarks();
  if (saved.length === 0)
    return [{ label: 'bm', detail: 'no bookmarks yet: b on a list or record saves one', run: () => undefined }];
  return saved.map(({ name, bookmark }) => ({
    label: `bm ${name}`,
    detail: describeBookmark(bookmark),
    run: () => void openBookmark(ctx, bookmark),
  }));
};

const commands: Provider = (ctx, query) => {
  if (isWordQuery(query)) return [];
  return [
    {
      label: 'trail',
      detail: 'write the trail of this session so far as a HAR file (also T)',
      run: () => void writeTrail(ctx),
    },
    {
      label: 'exchange',
      detail: 'the last request and its response as sent and received (also E)',
      run: () => ctx.nav.open('exchange', { origin: ctx.services.origin() }),
    },
    { label: 'home', detail: 'back to the catalog', run: () => ctx.nav.home() },
    { label: 'help', detail: 'every key', run: () => ctx.nav.open('help', {}) },
    { label: 'quit', detail: 'leave dpx', run: () => ctx.nav.quit() },
  ];
};

/** The filter a view opened on `resource` keeps: the one the screen below asks with, when it lists the same resource. */
function keptFilter(ctx: Ctx, resource: string): string | undefined {
  const question = ctx.nav.question();
  return question?.resource === resource ? question.filter : undefined;
}

/**
 * `count <resource> [by <field>] [plan cells|scan] [where <filter>]`: the count matrix; the fields offered
 * are those the record schema lists; `plan` forces one of the planner's plans, as `dpx count --plan` does.
 * Without `where`, a count of the resource the screen below lists keeps its filter.
 */
const counts: Provider = (ctx, query) => {
  if (!COUNT_QUERY.test(query)) return [];
  const where = /\bwhere\s+(.*)$/i.exec(query)?.[1]?.trim();
  const asked = where === undefined ? query : query.slice(0, query.search(/\bwhere\b/i));
  const by = /\bby\s+(\S+)/i.exec(asked)?.[1];
  const plan = /\bplan\s+(cells|scan)\b/i.exec(asked)?.[1]?.toLowerCase() as 'cells' | 'scan' | undefined;
  const planned = plan ? ` plan ${plan}` : '';
  return (ctx.services.catalogOf()?.resources ?? []).flatMap((resource) => {
    const filter = where || keptFilter(ctx, resource.name);
    const open = (field?: string): PaletteEntry => ({
      label: `count ${resource.name}${field ? ` by ${field}` : ''}${planned}${where ? ` where ${where}` : ''}`,
      detail: `${field ? `every unit × the values of ${field}` : "every unit's total"}${filter ? ` where ${filter}${where ? '' : " (the list's filter)"}` : ''}`,
      run: () =>
        ctx.nav.open('count', {
          resource: resource.name,
          ...(field ? { by: field } : {}),
          ...(filter ? { filter } : {}),
          ...(plan ? { forcedPlan: plan } : {}),
        }),
    });
    const fields = by
      ? [by]
      : (knownRecordFields(resource.name, resource.defaultVersion) ?? []).filter(
          (field) => !/(^|_)id$|timestamp|_at$/.test(field),
        );
    return [open(), ...fields.map(open)];
  });
};

/** `<resource> @all`: one list merged across every unit of the current profile, with the filter of the list below. */
const merged: Provider = (ctx, query) => {
  if (!MERGED_QUERY.test(query)) return [];
  return (ctx.services.catalogOf()?.resources ?? []).map((resource) => {
    const filter = keptFilter(ctx, resource.name);
    return {
      label: `${resource.name} @all`,
      detail: `one list across every unit, each record tagged with its unit${filter ? ` · where ${filter}` : ''}`,
      run: () =>
        ctx.nav.open('merged-list', {
          origin: ctx.services.origin(),
          resource: resource.name,
          ...(filter ? { filter } : {}),
        }),
    };
  });
};

/** `view NAME`: a saved view (`dpx view save`), opened as the screen it describes. */
const views: Provider = (ctx, query) => {
  if (!VIEW_QUERY.test(query)) return [];
  const saved = viewChoices(ctx, 'view ');
  return saved.length > 0
    ? saved
    : [
        {
          label: 'view',
          detail: 'no saved views: dpx view save NAME -- list tasks --since 24h saves one',
          run: () => undefined,
        },
      ];
};

const PROVIDERS: Provider[] = [resources, units, profiles, bookmarks, counts, merged, views, commands];

/** Every entry for what has been typed, best match first. */
export function paletteEntries(ctx: Ctx, query: string): PaletteEntry[] {
  return fuzzyFilter(
    query,
    PROVIDERS.flatMap((provider) => provider(ctx, query)),
    (entry) => entry.label,
  );
}
