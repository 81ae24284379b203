// `X` on a record: everything connected to it, both ways, as a foldable tree that fills in as the answers
// arrive — the records its links reach, the lists that refer to it by id, and (`h`) those referrers as a
// history. Enter opens a record of the tree.
import { Box, Text } from 'ink';
import type { TimelineEntry } from '../../../api/xray/history.js';
import { xray, DEFAULT_DEPTH, type InboundGroup, type XrayEdge, type XrayNode } from '../../../api/xray/xray.js';
import { fit, oneLine, truncate } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import { errorInfo } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import { statusTone } from '../../../text/colour.js';
import { relativeAge } from '../../values.js';
import { xrayLines, type XrayLine } from './lines.js';
import { knownName, nameBesideId } from '../list/names.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    xray: XrayParams;
  }
}

export interface XrayParams {
  origin: Origin;
  resource: string;
  version: string;
  record: Record<string, unknown>;
}

export interface XrayState extends ScreenBase, XrayParams {
  root?: string;
  nodes: Record<string, XrayNode>;
  edges: XrayEdge[];
  inbound: InboundGroup[];
  timeline?: TimelineEntry[];
  requests?: number;
  collapsed: ReadonlySet<string>;
  cursor: number;
  top: number;
  history: boolean;
  stopping: AbortController;
}

type Ctx = ScreenContext<XrayState>;

const linesOf = (state: XrayState) => xrayLines({ ...state, depth: DEFAULT_DEPTH });

async function walk(ctx: Ctx): Promise<void> {
  const { origin, resource, version, record, stopping } = ctx.state;
  ctx.update({ loading: 'x-ray: following links and asking who refers to it' });
  try {
    const { filterStore } = ctx.services;
    const events = xray(
      origin.connection.session,
      { resource, version, record },
      {
        ou: origin.ou ?? null,
        signal: stopping.signal,
        ...(filterStore ? { filterStore } : {}),
        ...(origin.connection.pageSize === undefined ? {} : { inboundPageSize: origin.connection.pageSize }),
      },
    );
    for (;;) {
      const next = await events.next();
      if (next.done) {
        ctx.update({ loading: undefined, requests: next.value.requests, timeline: next.value.timeline });
        return;
      }
      const event = next.value;
      if (event.kind === 'node')
        ctx.update((s) => ({ root: s.root ?? event.node.key, nodes: { ...s.nodes, [event.node.key]: event.node } }));
      else if (event.kind === 'edge') ctx.update((s) => ({ edges: [...s.edges, event.edge] }));
      else if (event.kind === 'inbound') ctx.update((s) => ({ inbound: [...s.inbound, event.group] }));
      else if (event.kind === 'timeline') ctx.update({ timeline: event.entries });
    }
  } catch (error) {
    if (!stopping.signal.aborted) ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

function openNode(ctx: Ctx, node: XrayNode | undefined): void {
  if (!node?.resource || !node.version) return;
  const { origin } = ctx.state;
  if (node.record)
    return ctx.nav.open('record', { origin, resource: node.resource, version: node.version, record: node.record });
  if (node.url && node.state !== 'not-followed')
    return ctx.nav.open('record', { origin, resource: node.resource, version: node.version, read: { href: node.url } });
  ctx.nav.notify(node.error ? `not read: ${node.error}` : 'this record was not read');
}

function fold(ctx: Ctx, open?: boolean): void {
  const line = linesOf(ctx.state)[ctx.state.cursor];
  const key = line?.kind === 'group' ? line.fold : line?.kind === 'node' ? line.fold : undefined;
  if (!key) return;
  const collapsed = new Set(ctx.state.collapsed);
  if (open ?? collapsed.has(key)) collapsed.delete(key);
  else collapsed.add(key);
  ctx.update({ collapsed });
}

/** A node's name when the walk did not read one: a unit's from the tree, a record's read before (no request). */
type NameOf = (node: XrayNode) => string | undefined;

function NodeText({ node, width, nameOf }: { node: XrayNode; width: number; nameOf: NameOf }) {
  const known = node.id !== undefined && node.label === String(node.id) ? nameOf(node) : undefined;
  const label = known ? nameBesideId(known, String(node.id)) : node.label;
  return (
    <>
      <Tinted tone="info">{oneLine(node.resource ?? '?')}</Tinted> {truncate(label, Math.max(10, width / 3))}
      {node.status ? (
        <>
          {' '}
          <Tinted tone={statusTone(node.status)}>{oneLine(node.status)}</Tinted>
        </>
      ) : null}
      {node.id && String(node.id) !== node.label ? <Tinted tone="muted"> {oneLine(String(node.id))}</Tinted> : null}
      {node.state === 'pending' ? <Tinted tone="muted"> …</Tinted> : null}
      {node.error ? <Tinted tone="bad"> ✗ {oneLine(node.error)}</Tinted> : null}
    </>
  );
}

function LineView({
  line,
  state,
  selected,
  width,
  nameOf,
}: {
  line: XrayLine;
  state: XrayState;
  selected: boolean;
  width: number;
  nameOf: NameOf;
}) {
  const mark = (
    <Tinted inverse={selected} bold={selected}>
      {selected ? '›' : ' '}
    </Tinted>
  );
  if (line.kind === 'heading')
    return (
      <Text wrap="truncate">
        {mark}
        <Tinted tone="muted" bold>
          {oneLine(line.text)}
        </Tinted>
      </Text>
    );
  const folded = (key: string | undefined) => (key === undefined ? '  ' : state.collapsed.has(key) ? '▸ ' : '▾ ');
  if (line.kind === 'group') {
    const { group } = line;
    const count = group.error
      ? `error: ${group.error}`
      : group.total !== undefined
        ? `${group.total}${group.total > group.keys.length ? `, first ${group.keys.length} shown` : ''}`
        : `${group.keys.length} on the first page`;
    return (
      <Text wrap="truncate">
        {mark} {folded(line.fold)}
        <Tinted tone="info">{oneLine(group.candidate.resource)}</Tinted> by {oneLine(group.candidate.via)}:{' '}
        <Tinted tone={group.error ? 'bad' : 'neutral'}>{oneLine(count)}</Tinted>
      </Text>
    );
  }
  const node = state.nodes[line.key]!;
  return (
    <Text wrap="truncate">
      {mark}
      {'  '.repeat(line.depth)}
      {folded(line.fold)}
      {line.rel ? <Tinted tone="muted">{oneLine(line.rel)} → </Tinted> : null}
      <NodeText node={node} width={width} nameOf={nameOf} />
      {line.mark ? <Tinted tone="muted"> ({line.mark})</Tinted> : null}
    </Text>
  );
}

function HistoryView({ state, height, now }: { state: XrayState; height: number; now: number }) {
  const entries = state.timeline;
  if (!entries)
    return <Tinted tone="muted">the history comes once every list that may refer to the record has answered…</Tinted>;
  if (entries.length === 0) return <Tinted tone="muted">no record that refers to it carries a timestamp</Tinted>;
  const who = Math.min(28, Math.max(3, ...entries.map((e) => (e.who ?? '—').length)));
  const what = Math.min(32, Math.max(4, ...entries.map((e) => (e.what ?? '—').length)));
  return (
    <Box flexDirection="column">
      <Tinted bold>history, newest first · {entries.length} records that refer to it · h back to the tree</Tinted>
      {entries.slice(state.top, state.top + height - 1).map((entry) => (
        <Text key={entry.key} wrap="truncate">
          {fit(relativeAge(entry.when, now), 9)} {fit(entry.who ?? '—', who)} {fit(entry.what ?? '—', what)}{' '}
          <Tinted tone={statusTone(entry.outcome ?? '')}>{oneLine(entry.outcome ?? '—')}</Tinted>{' '}
          <Tinted tone="muted">{oneLine(entry.resource)}</Tinted>
        </Text>
      ))}
    </Box>
  );
}

/** The lists that do refer to the record: a search that found records, not one that found none or could not search. */
function referring(groups: XrayState['inbound']): number {
  return groups.filter((group) => !group.unsearchable && !group.error && (group.total ?? group.keys.length) > 0).length;
}

export const xrayScreen: ScreenModule<XrayState, XrayParams> = {
  title: 'x-ray (X on a record)',
  init: (params) => ({
    ...params,
    nodes: {},
    edges: [],
    inbound: [],
    collapsed: new Set(),
    cursor: 0,
    top: 0,
    history: false,
    stopping: new AbortController(),
  }),
  start: (ctx) => void walk(ctx),
  stop: (state) => state.stopping.abort(),
  origin: (s) => s.origin,
  // A root not read yet (it failed) leaves nothing the tree could mean.
  empty: (s) => s.root === undefined || s.nodes[s.root]?.state !== 'loaded',
  crumb: () => 'x-ray',
  subject: (s) => (s.version ? `${s.resource}@${s.version}` : s.resource),
  status: (s) =>
    `${Object.keys(s.nodes).length} records · ${referring(s.inbound)} ${referring(s.inbound) === 1 ? 'list refers' : 'lists refer'} to it${s.requests !== undefined ? ` · ${s.requests} requests` : ''}`,
  bindings: [
    {
      keys: ['return'],
      help: 'open the record under the cursor (on a list: fold it)',
      hint: 'Enter open',
      when: (s) => !s.history,
      run: (ctx) => {
        const line = linesOf(ctx.state)[ctx.state.cursor];
        if (line?.kind === 'node') openNode(ctx, ctx.state.nodes[line.key]);
        else fold(ctx);
      },
    },
    {
      keys: [' '],
      help: 'fold / unfold the branch under the cursor',
      hint: 'Space fold',
      when: (s) => !s.history,
      run: (ctx) => fold(ctx),
    },
    { keys: ['left'], help: 'fold the branch', when: (s) => !s.history, run: (ctx) => fold(ctx, false) },
    { keys: ['right'], help: 'unfold the branch', when: (s) => !s.history, run: (ctx) => fold(ctx, true) },
    {
      keys: ['h'],
      help: 'the history: the records that refer to it, newest first (who, what, outcome, when); again: the tree',
      hint: 'h history',
      run: (ctx) => ctx.update((s) => ({ history: !s.history, top: 0 })),
    },
    {
      keys: [...MOVE_KEYS],
      help: 'move',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1;
        if (ctx.state.history)
          return ctx.update((s) => ({ top: moveCursor(s.top, s.timeline?.length ?? 0, key, height) }));
        const cursor = moveCursor(ctx.state.cursor, linesOf(ctx.state).length, key, height);
        ctx.update((s) => ({ cursor, top: scrollTop(s.top, cursor, height) }));
      },
    },
  ],
  View: ({ state, ctx, height, width }) => {
    if (state.history) return <HistoryView state={state} height={height} now={ctx.now} />;
    const lines = linesOf(state);
    const nameOf: NameOf = (node) => {
      if (!node.resource || !node.version || node.id === undefined) return undefined;
      return (
        knownName(
          ctx.services,
          state.origin,
          { field: '', resource: node.resource, version: node.version },
          String(node.id),
        ) ?? undefined
      );
    };
    return (
      <Box flexDirection="column">
        {lines.slice(state.top, state.top + height).map((line, index) => (
          <LineView
            key={state.top + index}
            line={line}
            state={state}
            selected={state.top + index === state.cursor}
            width={width}
            nameOf={nameOf}
          />
        ))}
      </Box>
    );
  },
};
