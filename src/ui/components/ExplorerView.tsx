// The whole frame: header, breadcrumbs, the top screen or an overlay, the panel, the footer.
// Keys go to the explorer one at a time; the frame is drawn from its state.
import { useEffect, useSyncExternalStore } from 'react';
import { Box, Text, useInput, useStdin, useStdout } from 'ink';
import type { Explorer } from '../explorer.js';
import { toKeys } from '../keys.js';
import { bodyHeight } from '../layout.js';
import type { ExplorerState, ListScreen, Screen } from '../state.js';
import { topScreen } from '../state.js';
import { formatCount, truncate } from '../../text/cells.js';
import { flattenTree } from '../tree.js';
import { pageIndexAt, rowCount } from '../window.js';
import { CatalogView } from './CatalogView.js';
import { DetailView } from './DetailView.js';
import { Header } from './Header.js';
import { ListView } from './ListView.js';
import { OperationScreen } from '../operations/operation-screen.js';
import { FilterOverlay, HelpOverlay, OuOverlay, PaletteOverlay, PromptOverlay, TemplateOverlay, VersionOverlay } from './Overlays.js';
import { Panel } from './Panel.js';
import { Tinted } from './theme.js';

function crumb(screen: Screen): string {
  if (screen.kind === 'catalog') return 'home';
  if (screen.kind === 'list') return screen.serverFilter ? `${screen.title} (filtered)` : screen.title;
  return screen.title.length > 14 ? `${screen.title.slice(0, 13)}…` : screen.title;
}

/** "page 3/120 · 1,193 items · 10 loaded", from what the list's envelope says. */
export function pageIndicator(explorer: Explorer, screen: ListScreen): string {
  const page = explorer.currentPage(screen);
  if (!page) return screen.loading ? '' : 'no rows';
  const index = pageIndexAt(screen.pages, screen.cursor);
  const number = page.start && /^\d+$/.test(page.start) ? page.start : undefined;
  const pagePart = number ? `page ${number}${page.totalPages !== undefined ? `/${formatCount(page.totalPages)}` : ''}` : `page ${index + 1} of those loaded`;
  const total = page.totalCount !== undefined ? ` · ${formatCount(page.totalCount)} items` : '';
  const shown = explorer.visibleRows(screen).length;
  const loaded = rowCount(screen.pages);
  const quick = screen.quick ? ` · ${shown}/${loaded} match "${screen.quick}"` : ` · ${formatCount(loaded)} loaded`;
  const more = screen.pages[screen.pages.length - 1]?.links.next ? '' : ' · end';
  return `${pagePart}${total}${quick}${more}`;
}

function footerHints(screen: Screen): string {
  if (screen.kind === 'catalog') {
    return screen.filter
      ? '↑↓ Enter open · Tab operations · Backspace edits · Esc clears the filter (then q quits) · ? help'
      : 'type to filter · ↑↓ Enter open · Tab operations · :ou OU · :profile · :bm · :trail · ? help · q quit';
  }
  if (screen.kind === 'list') return 'Enter open · x operations · n/p page · / quick · f filter · s sort · w watch · v version · o OU · b bookmark · T trail · Esc back · ? help';
  return 'Enter fold/follow · x operations · y raw · r reload · o OU · b bookmark · T trail · Esc back · ? help';
}

function Footer({ explorer, state, screen }: { explorer: Explorer; state: ExplorerState; screen: Screen }) {
  const width = state.size.columns - 1;
  if (screen.kind === 'list' && screen.quickEditing) {
    return <Text wrap="truncate"><Tinted tone="info" bold>/</Tinted>{screen.quick}<Tinted tone="info">▏</Tinted><Tinted tone="muted"> Enter keeps · Esc clears</Tinted></Text>;
  }
  if (state.overlay?.kind === 'operations') {
    return <Text wrap="truncate"><Tinted tone="muted">operations of {state.overlay.resource} {state.overlay.version} · Esc steps back (on the list it closes) · ctrl-c quits</Tinted></Text>;
  }
  const left = screen.kind === 'list' ? `${pageIndicator(explorer, screen)}  ` : '';
  const right = state.notice
    ? <Tinted tone="info">{truncate(state.notice, Math.max(0, width - left.length))}</Tinted>
    : <Tinted tone="muted">{truncate(footerHints(screen), Math.max(0, width - left.length))}</Tinted>;
  return <Text wrap="truncate"><Tinted bold>{left}</Tinted>{right}</Text>;
}

function Body({ explorer, state, screen, height }: { explorer: Explorer; state: ExplorerState; screen: Screen; height: number }) {
  const { columns } = state.size;
  const overlay = state.overlay;
  if (overlay) {
    switch (overlay.kind) {
      case 'help': return <HelpOverlay top={overlay.top} height={height} columns={columns} />;
      case 'palette': return <PaletteOverlay input={overlay.input} cursor={overlay.cursor} entries={explorer.paletteEntries(overlay.input)} height={height} columns={columns} />;
      case 'version': return <VersionOverlay overlay={overlay} height={height} />;
      case 'ou': return <OuOverlay overlay={overlay} choices={explorer.ouChoices(overlay)} height={height} columns={columns} />;
      case 'filter': return <FilterOverlay overlay={overlay} choices={explorer.filterChoices(overlay)} preview={explorer.filterPreview(overlay)} height={height} />;
      case 'template': return <TemplateOverlay overlay={overlay} columns={columns} />;
      case 'prompt': return <PromptOverlay overlay={overlay} />;
      case 'operations':
        return (
          <OperationScreen key={overlay.opened} session={explorer.session} catalog={state.catalog!} resource={overlay.resource} version={overlay.version}
            {...(overlay.record ? { record: overlay.record } : {})} {...(overlay.operationId ? { operationId: overlay.operationId } : {})}
            {...(state.ouName ? { ouName: state.ouName } : {})} {...(explorer.schemaDir ? { schemaDir: explorer.schemaDir } : {})}
            {...(explorer.taskIntervalMs !== undefined ? { taskIntervalMs: explorer.taskIntervalMs } : {})}
            height={height} width={columns} onClose={() => explorer.closeOverlay()}
            onOpenRecord={(resource, version, record) => { explorer.closeOverlay(); explorer.openRecord(record, resource, version); }} />
        );
    }
  }
  if (screen.kind === 'catalog') {
    return (
      <CatalogView resources={explorer.catalogRows(screen)} total={state.catalog?.resources.length ?? 0} filter={screen.filter}
        cursor={screen.cursor} height={height} columns={columns} />
    );
  }
  if (screen.kind === 'list') {
    const empty = screen.loading ? '' : screen.quick ? `no loaded row matches "${screen.quick}"` : screen.error ? '' : 'the list is empty';
    return (
      <ListView columns={explorer.columnsOf(screen)} rows={explorer.visibleRows(screen)} cursor={screen.cursor} top={screen.top}
        height={height} currentColumn={screen.column} sort={screen.sort} now={state.now} empty={empty} />
    );
  }
  return (
    <DetailView lines={flattenTree(screen.record, screen.collapsed)} links={screen.links} cursor={screen.cursor} top={screen.top}
      height={height} raw={screen.raw} record={screen.record} columns={columns} now={state.now} />
  );
}

export function ExplorerView({ explorer }: { explorer: Explorer }) {
  const state = useSyncExternalStore(explorer.subscribe, explorer.getState);
  const { isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  useInput(
    (input, key) => {
      for (const k of toKeys(input, key)) explorer.key(k);
    },
    { isActive: isRawModeSupported === true },
  );
  useEffect(() => {
    const onResize = () => explorer.resize(stdout.columns || 80, stdout.rows || 24);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [explorer, stdout]);

  const screen = topScreen(state);
  const height = bodyHeight(state.size.rows, screen.error);
  const current = screen.kind === 'catalog' ? undefined : `${screen.resource}@${screen.version}`;
  return (
    <Box flexDirection="column" width={state.size.columns}>
      <Header session={explorer.session} profile={explorer.profile} token={explorer.tokenInfo(state.now)} ouName={state.ouName} current={current}
        loading={screen.loading} watching={screen.kind === 'list' && screen.watch} columns={state.size.columns} now={state.now} />
      <Text wrap="truncate"><Tinted tone="muted">{[...state.stack.map(crumb), ...(state.overlay?.kind === 'operations' ? ['operations'] : [])].join(' › ')}</Tinted></Text>
      <Box flexDirection="column" height={height}>
        <Body explorer={explorer} state={state} screen={screen} height={height} />
      </Box>
      <Panel error={screen.error} columns={state.size.columns} />
      <Footer explorer={explorer} state={state} screen={screen} />
    </Box>
  );
}
