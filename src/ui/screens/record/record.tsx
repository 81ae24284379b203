// One record: its fields as a tree whose nested values fold, then its links to follow (a list opens as a
// list, anything else as a record), or its raw JSON. Everything it asks goes to the record's origin.
import { expandedLink, linkUrl, recordLinks, normaliseRel, type Link } from '../../../api/hal/links.js';
import { parseVendorMediaType } from '../../../api/media.js';
import { isListEnvelope, readPage } from '../../../api/session/pages.js';
import { isObject } from '../../../api/json.js';
import { recordId, recordName } from '../../../api/hal/records.js';
import { routeFor } from '../../../api/hal/routes.js';
import { isReadMethod } from '../../../api/security/safety.js';
import { changedFields } from '../../../api/case/diff.js';
import { templateVariables } from '../../../api/hal/template.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import { errorInfo } from '../../nav/problems.js';
import type { ScreenContext, ScreenModule } from '../../nav/screen.js';
import { flattenTree, initiallyCollapsed } from '../../tree.js';
import { askBookmarkName, viewBookmark } from '../bookmarks.js';
import { compareWith } from './compare.js';
import { RecordView } from './RecordView.js';
import { knownNames } from '../list/names.js';
import { VERSIONS_KEPT, withVersion, type RecordParams, type RecordRead, type RecordState } from './state.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    record: RecordParams;
  }
}

type Ctx = ScreenContext<RecordState>;

/** A response body as a record: an object as it is, anything else wrapped. */
export function asRecord(body: unknown): Record<string, unknown> {
  return isObject(body) ? body : { value: body };
}

function lineCount(state: RecordState): number {
  return flattenTree(state.record, state.collapsed).length + state.links.length;
}

/** Follows a link of the record: a list opens as a list, anything else as a record (or in place, to reload). */
async function follow(ctx: Ctx, link: Link, values: Record<string, string>, inPlace = false): Promise<void> {
  const { origin, resource: from, version: fromVersion } = ctx.state;
  const { session } = origin.connection;
  ctx.update({ loading: `following ${link.rel}`, error: undefined });
  try {
    const catalog = ctx.services.catalogOf(origin.connection);
    const target = expandedLink(link, values);
    const route = catalog ? routeFor(catalog, linkUrl(target, session.baseUrl), session.baseUrl) : undefined;
    const owner = route && route.resource !== from ? route : { resource: from, version: fromVersion };
    const request = session.prepareLink(target, { ...owner, ou: origin.ou ?? null });
    const response = await session.send(request, inPlace ? { revalidate: true } : {});
    const media = parseVendorMediaType(response.contentType);
    const resource = media?.resource ?? request.resource;
    const version = media?.version ?? request.version;
    ctx.update({ loading: undefined });
    if (isListEnvelope(response.body)) {
      const page = readPage(response);
      return ctx.nav.open('list', {
        origin,
        source: { kind: 'link', href: request.url, resource, version },
        first: { request, page },
        label: `${resource}@${version} (${link.rel})`,
      });
    }
    const record = asRecord(response.body);
    if (inPlace) {
      return ctx.update((s) => {
        const versions = withVersion(s.versions, record);
        // The newest is followed while it is on show; an older one being read stays.
        const shown = s.shown === s.versions.length - 1 ? versions.length - 1 : s.shown;
        return { record, links: recordLinks(record), versions, shown };
      });
    }
    ctx.nav.open('record', { origin, resource, version, record });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

/** Reads the record the screen was opened for. */
async function read(ctx: Ctx, how: RecordRead): Promise<void> {
  const { origin, resource, version } = ctx.state;
  const { session } = origin.connection;
  ctx.update({ loading: `reading ${resource}`, error: undefined });
  try {
    const request =
      'href' in how
        ? session.prepareLink(how.href, { resource, version, ou: origin.ou ?? null })
        : await session.prepare({
            resource,
            version,
            operationId: how.operationId,
            variables: how.variables,
            ou: origin.ou ?? null,
          });
    const record = asRecord((await session.send(request)).body);
    ctx.update({
      loading: undefined,
      record,
      links: recordLinks(record),
      collapsed: initiallyCollapsed(record),
      versions: [record],
      shown: 0,
    });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

function openLink(ctx: Ctx, link: Link): void {
  const method = link.method ?? 'GET';
  if (!isReadMethod(method)) {
    return ctx.update({
      error: {
        title: `${link.rel} is a ${method} link, an operation rather than a place`,
        lines: [link.href],
        hint: 'press x for the operations the index offers for this resource (form, preview, confirmation)',
        tone: 'warning',
      },
    });
  }
  const { path, query } = templateVariables(link.href);
  const variables = link.templated ? [...path, ...query] : [];
  if (variables.length === 0) return void follow(ctx, link, {});
  ctx.nav.open('template', {
    title: `follow ${link.rel}`,
    href: link.href,
    variables,
    submit: (values) => void follow(ctx, link, values),
  });
}

export const recordScreen: ScreenModule<RecordState, RecordParams> = {
  title: 'record',
  init: ({ origin, resource, version, record = {}, read, earlier = [] }) => ({
    origin,
    resource,
    version,
    record,
    ...(read ? { read } : {}),
    links: recordLinks(record),
    collapsed: initiallyCollapsed(record),
    cursor: 0,
    top: 0,
    raw: false,
    versions: withVersion(earlier, record),
    shown: Math.min(earlier.length, VERSIONS_KEPT - 1),
    watch: false,
  }),
  start: (ctx) => {
    ctx.update({ writesSeen: ctx.services.writesTo(ctx.state.resource) });
    if (ctx.state.read) void read(ctx, ctx.state.read);
  },
  resumed: (ctx) => {
    const writes = ctx.services.writesTo(ctx.state.resource);
    if (writes === (ctx.state.writesSeen ?? 0)) return;
    ctx.update({ writesSeen: writes });
    const self = ctx.state.links.find((l) => normaliseRel(l.rel) === 'self');
    if (self) void follow(ctx, self, {}, true);
  },
  tick: (ctx) => {
    const self = ctx.state.links.find((l) => normaliseRel(l.rel) === 'self');
    if (ctx.state.watch && self && !ctx.state.loading) void follow(ctx, self, {}, true);
  },
  origin: (s) => s.origin,
  crumb: (s) => {
    const title = recordId(s.record) ?? recordName(s.record)?.name ?? s.resource;
    return title.length > 14 ? `${title.slice(0, 13)}…` : title;
  },
  subject: (s) => (s.version ? `${s.resource}@${s.version}` : s.resource),
  badges: (s) => (s.watch ? ['WATCH'] : []),
  bindings: [
    {
      keys: ['return', ' '],
      help: 'fold / unfold a nested value; follow a link',
      hint: 'Enter fold/follow',
      run: (ctx) => {
        const lines = flattenTree(ctx.state.record, ctx.state.collapsed);
        const line = lines[ctx.state.cursor];
        if (line?.container) {
          const collapsed = new Set(ctx.state.collapsed);
          if (collapsed.has(line.path)) collapsed.delete(line.path);
          else collapsed.add(line.path);
          return ctx.update({ collapsed });
        }
        const link = ctx.state.links[ctx.state.cursor - lines.length];
        if (link) openLink(ctx, link);
      },
    },
    {
      keys: ['x'],
      help: 'operations the index offers for this resource version (● this record fills them)',
      hint: 'x operations',
      run: (ctx) =>
        ctx.nav.open('operations', {
          origin: ctx.state.origin,
          resource: ctx.state.resource,
          version: ctx.state.version,
          record: ctx.state.record,
        }),
    },
    {
      keys: ['X'],
      help: "x-ray: what the record's links reach, what refers to it, and its history",
      hint: 'X x-ray',
      run: (ctx) =>
        ctx.nav.open('xray', {
          origin: ctx.state.origin,
          resource: ctx.state.resource,
          version: ctx.state.version,
          record: ctx.state.record,
        }),
    },
    {
      keys: ['d'],
      help: 'diff: the record beside itself in another version, unit or profile, aligned by field',
      hint: 'd diff',
      run: (ctx) => void compareWith(ctx),
    },
    {
      keys: ['y'],
      help: 'raw JSON on / off',
      hint: 'y raw',
      run: (ctx) => ctx.update((s) => ({ raw: !s.raw, top: 0 })),
    },
    {
      keys: ['r'],
      help: 'reload the record by its self link',
      hint: 'r reload',
      run: (ctx) => {
        const self = ctx.state.links.find((l) => normaliseRel(l.rel) === 'self');
        if (!self) return ctx.nav.notify('this record has no self link to reload from');
        void follow(ctx, self, {}, true);
      },
    },
    {
      keys: ['w'],
      help: 'watch: read the record again every few seconds (If-None-Match), keeping its last 10 versions',
      hint: 'w watch',
      run: (ctx) => {
        const watch = !ctx.state.watch;
        if (watch && !ctx.state.links.some((l) => normaliseRel(l.rel) === 'self'))
          return ctx.nav.notify('this record has no self link to read it again by');
        ctx.update({ watch });
        ctx.nav.notify(
          watch ? 'watching: each change becomes a version; [ and ] go through them (w stops)' : 'watch stopped',
        );
      },
    },
    {
      keys: ['['],
      help: 'the version before (each shows what changed since the one before it)',
      hint: '[ ] versions',
      when: (s) => s.shown > 0,
      run: (ctx) => ctx.update((s) => ({ shown: s.shown - 1 })),
    },
    {
      keys: [']'],
      help: 'the version after',
      when: (s) => s.shown < s.versions.length - 1,
      run: (ctx) => ctx.update((s) => ({ shown: s.shown + 1 })),
    },
    {
      keys: ['b'],
      help: "bookmark this resource's list (profile, resource, version, OU); :bm opens bookmarks",
      hint: 'b bookmark',
      run: (ctx) => askBookmarkName(ctx as ScreenContext<unknown>, viewBookmark(ctx.state)),
    },
    {
      keys: [...MOVE_KEYS],
      help: 'move over fields and links',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1;
        const cursor = moveCursor(ctx.state.cursor, lineCount(ctx.state), key, height);
        ctx.update((s) => ({ cursor, top: scrollTop(s.top, cursor, height) }));
      },
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const shown = state.versions[state.shown] ?? state.record;
    const before = state.versions[state.shown - 1];
    const changed = before
      ? new Map(changedFields(before, shown).map((change) => [change.path, change.then]))
      : undefined;
    const version =
      state.versions.length > 1
        ? `version ${state.shown + 1} of ${state.versions.length}${state.shown === state.versions.length - 1 ? ' (newest)' : ''}`
        : undefined;
    return (
      <RecordView
        lines={flattenTree(shown, state.collapsed)}
        links={state.links}
        cursor={state.cursor}
        top={state.top}
        height={height}
        raw={state.raw}
        record={shown}
        columns={width}
        now={ctx.now}
        {...(changed ? { changed } : {})}
        {...(version ? { version } : {})}
        names={knownNames(ctx.services, state.origin, shown)}
      />
    );
  },
};
