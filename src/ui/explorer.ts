// The explorer's behaviour without any drawing: it owns the state, turns key presses into changes,
// and talks to the session. Keys are handled one at a time against the current state (no stale
// closures), and each answer from the server is applied only to the screen that asked for it.
import { join } from 'node:path';
import { findResource, type Catalog } from '../api/catalog.js';
import { ApiError, toDpxError } from '../api/errors.js';
import { recordLinks, type Link } from '../api/links.js';
import { parseVendorMediaType } from '../api/media.js';
import type { PreparedRequest } from '../api/operation.js';
import { listRequest, pageLinkRequest, readPage, walkPages, type LinkRole, type Page } from '../api/pages.js';
import type { ApiResponse, Session } from '../api/session.js';
import { expandTemplate, templateVariables } from '../api/template.js';
import { describeToken, type TokenInfo } from '../api/token.js';
import { listBookmarks, saveBookmark, type Bookmark } from '../config/profiles.js';
import { compareBy, inferColumns, recordMatches, type Column } from './columns.js';
import { buildFilter, filterFields, OPERATORS, valueAt } from './filter.js';
import { fuzzyFilter } from './fuzzy.js';
import { actionFor, helpLines, type KeyContext } from './keymap.js';
import type { Key } from './keys.js';
import { bodyHeight, scrollTop } from './layout.js';
import type { Connection, ProfileChoice, ProfileSource } from './connections.js';
import { findUnitResource, isTree, isUuid, toUnit, unitTree } from '../api/units.js';
import { routeFor } from '../api/routes.js';
import type { CatalogScreen, DetailScreen, ErrorInfo, ExplorerState, ListScreen, OrgUnit, Overlay, PaletteEntry, Screen } from './state.js';
import { topScreen } from './state.js';
import { flattenTree, initiallyCollapsed } from './tree.js';
import { pageIndexAt, pageStartRow, appendPage, prependPage, rowsOf } from './window.js';

export interface ExplorerContext {
  session: Session;
  token?: string;
  profile?: string;
  pageSize?: number;
  /** The profile's schema folder, for checking operation bodies. */
  schemaDir?: string;
  /** The config file's profiles, for the switcher; without it the explorer stays on one control plane. */
  profiles?: ProfileSource;
  /** The config file bookmarks are saved in and read from. */
  configPath?: string;
  /** The session's trail so far, for `T`. */
  trail?: { writeSnapshot(path: string): Promise<void>; readonly entryCount: number };
  /** Where `T` writes trails (the working directory by default). */
  trailDir?: string;
  /** Milliseconds between polls of a followed task. */
  taskIntervalMs?: number;
  columns: number;
  rows: number;
  onQuit(): void;
  /** Seconds between re-fetches in watch mode. */
  watchSeconds?: number;
  now?: () => number;
}

/** Where a list's first page comes from, so it can be asked again after an OU or version change. */
type ListSource =
  | { kind: 'resource'; resource: string; version?: string; operationId?: string; page?: string }
  | { kind: 'link'; href: string; resource: string; version: string };

/** Supplies palette entries for what the user has typed; the explorer and later features add providers. */
export type PaletteProvider = (query: string) => PaletteEntry[];

/** Where the user was on one control plane: kept when switching profiles, given back on return. */
interface Place {
  connection: Connection;
  stack: Screen[];
  catalog?: Catalog;
  ouName?: string;
  units?: OrgUnit[];
}

const PROFILE_QUERY = /^(profile|ctx)\b/i;
const BOOKMARK_QUERY = /^(bm|bookmark)\b/i;

/** "dpx-trail-2024-05-01T10-20-30Z.har": sorts by time and is a valid file name everywhere. */
export function trailFileName(now: number): string {
  return `dpx-trail-${new Date(now).toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.har`;
}

const PREFETCH_MARGIN = 5;
export const APPLY_FILTER = '✓ apply the filter';
export const CLEAR_FILTER = '✗ clear the server-side filter';
const OU_PICKER_MAX_UNITS = 2000;

export function errorInfo(error: unknown): ErrorInfo {
  const e = toDpxError(error);
  if (e instanceof ApiError) {
    return { title: e.message, status: e.status, lines: e.errors.map((x) => `[${x.code}] ${x.message}`), hint: e.hint, tone: 'error' };
  }
  return { title: e.message, lines: [], hint: e.hint, tone: 'error' };
}

function warningInfo(warnings: string[]): ErrorInfo | undefined {
  if (!warnings.length) return undefined;
  return { title: `${warnings.length} warning${warnings.length > 1 ? 's' : ''} about the response`, lines: warnings, tone: 'warning' };
}

function isListBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const embedded = (body as Record<string, unknown>)['_embedded'];
  return !!embedded && typeof embedded === 'object' && Array.isArray((embedded as Record<string, unknown>)['items']);
}

/** Applies a text edit (typing, Backspace, ctrl-u); undefined when the key is not one. */
export function editText(text: string, key: Key): string | undefined {
  if (key.name === 'backspace') return text.slice(0, -1);
  if (key.name === 'char' && key.ctrl && key.char === 'u') return '';
  if (key.name === 'char' && !key.ctrl) return text + key.char;
  return undefined;
}

export class Explorer {
  private state: ExplorerState;
  private readonly listeners = new Set<() => void>();
  private readonly sources = new Map<number, ListSource>();
  private nextId = 1;
  private watchTimer: ReturnType<typeof setInterval> | undefined;
  private units: OrgUnit[] | undefined;
  private connection: Connection;
  private readonly places = new Map<string, Place>();
  private profileChoices: ProfileChoice[] = [];
  private bookmarks: { name: string; bookmark: Bookmark }[] = [];
  /** A palette choice typed before the index and the config file were read: run once they are. */
  private pendingPalette: string | undefined;
  private configRead = false;
  private operationsOpened = 0;
  private readonly inferred = new WeakMap<readonly Page[], { width: number; columns: Column[] }>();
  readonly paletteProviders: PaletteProvider[] = [];

  constructor(private readonly context: ExplorerContext) {
    this.connection = {
      session: context.session,
      ...(context.profile === undefined ? {} : { profile: context.profile }),
      ...(context.token === undefined ? {} : { token: context.token }),
      ...(context.schemaDir === undefined ? {} : { schemaDir: context.schemaDir }),
      ...(context.pageSize === undefined ? {} : { pageSize: context.pageSize }),
    };
    this.state = {
      stack: [{ kind: 'catalog', id: this.nextId++, filter: '', cursor: 0 }],
      size: { columns: context.columns, rows: context.rows },
      now: this.now(),
    };
    this.paletteProviders.push(
      (q) => this.resourceEntries(q), (q) => this.ouEntries(q), (q) => this.profileEntries(q), (q) => this.bookmarkEntries(q), (q) => this.commandEntries(q),
    );
  }

  get session(): Session {
    return this.connection.session;
  }

  get profile(): string | undefined {
    return this.connection.profile;
  }

  get schemaDir(): string | undefined {
    return this.connection.schemaDir;
  }

  get taskIntervalMs(): number | undefined {
    return this.context.taskIntervalMs;
  }

  /** What the token says about itself now: expiry counts down, so this is asked at each frame. */
  tokenInfo(now: number = this.now()): TokenInfo | undefined {
    return this.connection.token ? describeToken(this.connection.token, this.session.baseUrl, now) : undefined;
  }

  // ——— store ———

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): ExplorerState => this.state;

  private now(): number {
    return this.context.now ? this.context.now() : Date.now();
  }

  private set(update: Partial<ExplorerState>): void {
    this.state = { ...this.state, ...update, now: this.now() };
    for (const listener of this.listeners) listener();
  }

  private updateScreen<S extends Screen>(id: number, change: (screen: S) => Partial<S>): void {
    const stack = this.state.stack.map((s) => (s.id === id ? ({ ...s, ...change(s as S) } as Screen) : s));
    this.set({ stack });
  }

  private push(screen: Screen): void {
    this.set({ stack: [...this.state.stack, screen], overlay: undefined });
  }

  private setOverlay(overlay: Overlay | undefined): void {
    this.set({ overlay });
  }

  // ——— life cycle ———

  async start(): Promise<void> {
    await this.loadCatalog();
    void this.refreshConfig();
    const seconds = this.context.watchSeconds ?? 3;
    this.watchTimer = setInterval(() => this.tick(), seconds * 1000);
  }

  private async loadCatalog(): Promise<void> {
    const home = this.state.stack[0];
    if (!home) return;
    const session = this.session;
    this.updateScreen(home.id, () => ({ loading: 'reading the discovery index', error: undefined }));
    try {
      const catalog = await session.catalog();
      // A profile switch while the index was on its way: it belongs to the other place.
      if (session !== this.session) return;
      this.updateScreen(home.id, () => ({ loading: undefined, error: warningInfo(catalog.warnings) }));
      this.set({ catalog });
      if (this.session.ou) void this.learnUnitName(this.session.ou);
      this.runPendingPalette();
    } catch (error) {
      if (session === this.session) this.updateScreen(home.id, () => ({ loading: undefined, error: errorInfo(error) }));
    }
  }

  /** Profiles and bookmarks from the config file, for the palette; a broken file shows as a notice. */
  private async refreshConfig(): Promise<void> {
    try {
      if (this.context.profiles) this.profileChoices = await this.context.profiles.list();
      if (this.context.configPath) this.bookmarks = await listBookmarks(this.context.configPath);
      if (this.state.overlay?.kind === 'palette') this.set({});
    } catch (error) {
      this.set({ notice: errorInfo(error).title });
    }
    this.configRead = true;
    this.runPendingPalette();
  }

  stop(): void {
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.watchTimer = undefined;
  }

  /** Shows a message from outside the explorer (a warning the session wrote) in the footer. */
  notify(message: string): void {
    if (message) this.set({ notice: message.split('\n')[0] });
  }

  resize(columns: number, rows: number): void {
    this.set({ size: { columns, rows } });
  }

  private tick(): void {
    const screen = topScreen(this.state);
    if (screen.kind === 'list' && screen.watch && !screen.pending && !this.state.overlay) void this.reloadList(screen.id, true);
    else this.set({});
  }

  // ——— keys ———

  key(key: Key): void {
    if (this.state.notice) this.state = { ...this.state, notice: undefined };
    if (key.name === 'char' && key.ctrl && key.char === 'c') return this.context.onQuit();
    const overlay = this.state.overlay;
    // The operation screens read their own keys; only Ctrl-C (above) reaches the explorer.
    if (overlay?.kind === 'operations') return;
    if (overlay) return this.overlayKey(overlay, key);
    const screen = topScreen(this.state);
    if (screen.kind === 'catalog' && this.catalogTyping(screen, key)) return;
    if (screen.kind === 'list' && screen.quickEditing) return this.quickKey(screen, key);
    const bound = actionFor(screen.kind as KeyContext, key);
    if (!bound) return this.set({});
    switch (bound.action) {
      case 'palette':
        void this.refreshConfig();
        return this.setOverlay({ kind: 'palette', input: '', cursor: 0 });
      case 'trail': return void this.writeTrail();
      case 'help': return this.setOverlay({ kind: 'help', top: 0 });
      case 'ou': return this.openOuPicker();
      case 'back': return this.back();
      case 'quit': return this.context.onQuit();
    }
    if (screen.kind === 'catalog') return this.catalogAction(screen, bound.action, key);
    if (screen.kind === 'list') return this.listAction(screen, bound.action, key);
    return this.detailAction(screen, bound.action, key);
  }

  back(): void {
    if (this.state.stack.length <= 1) {
      const home = topScreen(this.state);
      if (home.kind === 'catalog' && home.filter) this.updateScreen<CatalogScreen>(home.id, () => ({ filter: '', cursor: 0 }));
      return;
    }
    const popped = topScreen(this.state);
    if (popped.kind === 'list' && popped.quick) {
      return this.updateScreen<ListScreen>(popped.id, () => ({ quick: '', cursor: 0, top: 0 }));
    }
    this.sources.delete(popped.id);
    this.set({ stack: this.state.stack.slice(0, -1) });
  }

  private moveCursor(cursor: number, count: number, key: Key, page: number): number {
    const last = Math.max(0, count - 1);
    switch (key.name) {
      case 'up': return Math.max(0, cursor - 1);
      case 'down': return Math.min(last, cursor + 1);
      case 'pageup': return Math.max(0, cursor - page);
      case 'pagedown': return Math.min(last, cursor + page);
      case 'home': return 0;
      case 'end': return last;
      default:
        if (key.char === 'k') return Math.max(0, cursor - 1);
        if (key.char === 'j') return Math.min(last, cursor + 1);
        return cursor;
    }
  }

  // ——— catalog ———

  catalogRows(screen: CatalogScreen): Catalog['resources'] {
    const resources = this.state.catalog?.resources ?? [];
    return screen.filter ? fuzzyFilter(screen.filter, resources, (r) => r.name) : resources;
  }

  /** Typing filters the catalog; single-letter commands apply only while the filter is empty. */
  private catalogTyping(screen: CatalogScreen, key: Key): boolean {
    if (key.name === 'backspace' && screen.filter) {
      this.updateScreen<CatalogScreen>(screen.id, (s) => ({ filter: s.filter.slice(0, -1), cursor: 0 }));
      return true;
    }
    if (key.name !== 'char' || key.ctrl || key.char === ':' || key.char === '?') return false;
    // Every letter types, so a name can start with any of them; only q, with nothing typed, quits.
    if ((!screen.filter && key.char === 'q') || key.char === ' ') return false;
    this.updateScreen<CatalogScreen>(screen.id, (s) => ({ filter: s.filter + key.char, cursor: 0 }));
    return true;
  }

  private catalogAction(screen: CatalogScreen, action: string, key: Key): void {
    const rows = this.catalogRows(screen);
    const chosen = rows[screen.cursor];
    if (action === 'move') {
      const height = bodyHeight(this.state.size.rows, screen.error) - 1;
      return this.updateScreen<CatalogScreen>(screen.id, (s) => ({ cursor: this.moveCursor(s.cursor, rows.length, key, height) }));
    }
    if (!chosen) return this.set({});
    if (action === 'open') return this.openResource(chosen.name);
    if (action === 'operations') return this.openOperations(chosen.name, chosen.defaultVersion);
  }

  // ——— operations ———

  /** Opens the operation screens over the current screen; `record` fills the variables it can. */
  openOperations(resource: string, version: string, record?: Record<string, unknown>, operationId?: string): void {
    if (!this.state.catalog) return this.set({ notice: 'the index is not loaded yet' });
    this.setOverlay({ kind: 'operations', resource, version, opened: ++this.operationsOpened, ...(record ? { record } : {}), ...(operationId ? { operationId } : {}) });
  }

  closeOverlay(): void {
    this.setOverlay(undefined);
  }

  // ——— lists ———

  openResource(resource: string, version?: string, operationId?: string): void {
    const known = this.state.catalog ? findResource(this.state.catalog, resource) : undefined;
    const shown = version ?? known?.defaultVersion ?? '';
    this.openList({ kind: 'resource', resource, version, operationId }, `${resource}@${shown}`, resource, shown);
  }

  private openList(source: ListSource, title: string, resource: string, version: string, first?: { request: PreparedRequest; page: Page }, serverFilter?: string): void {
    const screen: ListScreen = {
      kind: 'list', id: this.nextId++, resource, version, title, conditions: [], pages: first ? [first.page] : [], ...(serverFilter ? { serverFilter } : {}),
      basis: first?.request, cursor: 0, top: 0, column: 0, quick: '', quickEditing: false, watch: false,
      error: first ? warningInfo(first.page.warnings) : undefined,
    };
    if (source.kind === 'resource') screen.operationId = source.operationId;
    this.sources.set(screen.id, source);
    this.push(screen);
    if (first) this.prefetch(screen.id);
    else void this.loadFirstPage(screen.id);
  }

  private async prepareBasis(screen: ListScreen): Promise<PreparedRequest> {
    const source = this.sources.get(screen.id);
    if (!source) throw new Error('a list screen always has a source');
    if (source.kind === 'link') return this.session.prepareLink(source.href, { resource: source.resource, version: source.version });
    return listRequest(this.session, {
      resource: source.resource, version: screen.version || source.version, operationId: source.operationId,
      filter: screen.serverFilter, pageSize: this.connection.pageSize, page: source.page,
    });
  }

  private findScreen<S extends Screen>(id: number): S | undefined {
    return this.state.stack.find((s) => s.id === id) as S | undefined;
  }

  private async fetchPage(request: PreparedRequest, reload = false): Promise<{ page: Page; response: ApiResponse }> {
    const response = await this.session.send(request, { reload });
    return { page: readPage(response.body, response.url), response };
  }

  async loadFirstPage(id: number): Promise<void> {
    const screen = this.findScreen<ListScreen>(id);
    if (!screen) return;
    // What was shown belongs to another filter, version or OU: it goes before the new rows arrive.
    this.updateScreen<ListScreen>(id, () => ({ loading: 'loading the first page', pending: 'first', error: undefined, pages: [], cursor: 0, top: 0 }));
    try {
      const basis = await this.prepareBasis(screen);
      const { page, response } = await this.fetchPage(basis, true);
      const version = parseVendorMediaType(response.contentType)?.version ?? basis.version;
      this.updateScreen<ListScreen>(id, () => ({
        basis, version, title: `${screen.resource}@${version}`, pages: [page], cursor: 0, top: 0,
        loading: undefined, pending: undefined, error: warningInfo(page.warnings),
      }));
      this.prefetch(id);
    } catch (error) {
      this.updateScreen<ListScreen>(id, () => ({ loading: undefined, pending: undefined, error: errorInfo(error) }));
    }
  }

  /** Re-fetches the page under the cursor by its self link; the cursor keeps its place in it. */
  async reloadList(id: number, quiet = false): Promise<void> {
    const screen = this.findScreen<ListScreen>(id);
    if (!screen) return;
    const index = pageIndexAt(screen.pages, this.recordIndex(screen));
    const page = screen.pages[index];
    const request = page && screen.basis ? pageLinkRequest(this.session, page, 'self', screen.basis) ?? undefined : undefined;
    if (!request) return this.loadFirstPage(id);
    const offset = this.recordIndex(screen) - pageStartRow(screen.pages, index);
    this.updateScreen<ListScreen>(id, () => ({ loading: quiet ? undefined : 'reloading', pending: 'reload' }));
    try {
      const { page: fresh } = await this.fetchPage(request, true);
      this.updateScreen<ListScreen>(id, (s) => {
        const cursor = Math.min(Math.max(0, fresh.items.length - 1), s.quick || s.sort ? 0 : offset);
        return { pages: [fresh], cursor, top: scrollTop(0, cursor, this.listHeight(s)), loading: undefined, pending: undefined, error: warningInfo(fresh.warnings) };
      });
    } catch (error) {
      this.updateScreen<ListScreen>(id, () => ({ loading: undefined, pending: undefined, error: errorInfo(error) }));
    }
  }

  /** The rows the list shows: loaded rows, quick-filtered and sorted. */
  visibleRows(screen: ListScreen): Record<string, unknown>[] {
    let rows = rowsOf(screen.pages);
    if (screen.quick) rows = rows.filter((r) => recordMatches(r, screen.quick));
    if (screen.sort) rows = [...rows].sort(compareBy(screen.sort.field, screen.sort.descending));
    return rows;
  }

  /**
   * The list's columns, inferred once per set of loaded pages and width: asked at every frame and
   * every key, and each inference measures every sampled cell.
   */
  columnsOf(screen: ListScreen): Column[] {
    const width = this.state.size.columns - 2;
    const known = this.inferred.get(screen.pages);
    if (known?.width === width) return known.columns;
    const columns = inferColumns(rowsOf(screen.pages), width, this.state.now);
    this.inferred.set(screen.pages, { width, columns });
    return columns;
  }

  /** The index in the loaded run of the record under the cursor. */
  private recordIndex(screen: ListScreen): number {
    if (!screen.quick && !screen.sort) return screen.cursor;
    const record = this.visibleRows(screen)[screen.cursor];
    return record ? rowsOf(screen.pages).indexOf(record) : 0;
  }

  /** The loaded page the cursor is on. */
  currentPage(screen: ListScreen): Page | undefined {
    return screen.pages[pageIndexAt(screen.pages, this.recordIndex(screen))];
  }

  listHeight(screen: ListScreen): number {
    return bodyHeight(this.state.size.rows, screen.error) - 1;
  }

  private setListCursor(id: number, cursor: number): void {
    this.updateScreen<ListScreen>(id, (s) => ({ cursor, top: scrollTop(s.top, cursor, this.listHeight(s)) }));
    // The key's frame goes out first: starting a request costs milliseconds of its own.
    setImmediate(() => this.prefetch(id));
  }

  /** Loads the next page ahead of need: when the cursor nears the end of the rows, or they do not fill the screen. */
  private prefetch(id: number): void {
    const screen = this.findScreen<ListScreen>(id);
    // A quick filter works on what is loaded: it never pulls in more pages looking for matches.
    if (!screen || screen.pending || screen.quick || screen.error?.tone === 'error') return;
    const rows = this.visibleRows(screen).length;
    const wanted = Math.max(screen.cursor + PREFETCH_MARGIN, screen.top + this.listHeight(screen));
    if (rows < wanted && screen.pages[screen.pages.length - 1]?.links.next) void this.loadAdjacent(id, 'next', false);
  }

  /** Loads the page after (or before) the run; `jump` moves the cursor to its first row. */
  private async loadAdjacent(id: number, role: 'next' | 'prev', jump: boolean): Promise<void> {
    const screen = this.findScreen<ListScreen>(id);
    if (!screen?.basis) return;
    if (screen.pending) {
      // A key that asks for the page already on its way is answered when it arrives.
      if (jump && screen.pending === role) this.updateScreen<ListScreen>(id, () => ({ jumpWhenLoaded: role }));
      return;
    }
    const edge = role === 'next' ? screen.pages[screen.pages.length - 1] : screen.pages[0];
    const request = edge ? pageLinkRequest(this.session, edge, role, screen.basis) : undefined;
    if (!request) {
      if (jump) this.set({ notice: role === 'next' ? 'this is the last page' : 'this is the first page' });
      return;
    }
    this.updateScreen<ListScreen>(id, () => ({ pending: role, loading: jump ? `loading the ${role} page` : undefined }));
    try {
      const { page } = await this.fetchPage(request);
      this.updateScreen<ListScreen>(id, (s) => {
        const { pages, shift } = role === 'next' ? appendPage(s.pages, page) : prependPage(s.pages, page);
        const plain = !s.quick && !s.sort;
        let cursor = plain ? Math.max(0, s.cursor + shift) : s.cursor;
        if ((jump || s.jumpWhenLoaded === role) && plain) cursor = role === 'next' ? pageStartRow(pages, pages.length - 1) : 0;
        const top = scrollTop(plain ? Math.max(0, s.top + shift) : s.top, cursor, this.listHeight(s));
        return { pages, cursor, top, pending: undefined, jumpWhenLoaded: undefined, loading: undefined, error: warningInfo(page.warnings) };
      });
      this.prefetch(id);
    } catch (error) {
      this.updateScreen<ListScreen>(id, () => ({ pending: undefined, jumpWhenLoaded: undefined, loading: undefined, error: errorInfo(error) }));
    }
  }

  private async loadEdge(id: number, role: Extract<LinkRole, 'first' | 'last'>): Promise<void> {
    const screen = this.findScreen<ListScreen>(id);
    const page = screen ? this.currentPage(screen) : undefined;
    if (!screen?.basis || !page || screen.pending) return;
    const request = pageLinkRequest(this.session, page, role, screen.basis);
    if (!request) return this.set({ notice: `the list offers no ${role} link` });
    this.updateScreen<ListScreen>(id, () => ({ pending: role, loading: `loading the ${role} page` }));
    try {
      const { page: edge } = await this.fetchPage(request);
      this.updateScreen<ListScreen>(id, () => ({ pages: [edge], cursor: 0, top: 0, pending: undefined, loading: undefined, error: warningInfo(edge.warnings) }));
      this.prefetch(id);
    } catch (error) {
      this.updateScreen<ListScreen>(id, () => ({ pending: undefined, loading: undefined, error: errorInfo(error) }));
    }
  }

  private movePage(screen: ListScreen, step: 1 | -1): void {
    const index = pageIndexAt(screen.pages, this.recordIndex(screen));
    const target = index + step;
    if (target >= 0 && target < screen.pages.length && !screen.quick && !screen.sort) {
      return this.setListCursor(screen.id, pageStartRow(screen.pages, target));
    }
    void this.loadAdjacent(screen.id, step === 1 ? 'next' : 'prev', true);
  }

  private quickKey(screen: ListScreen, key: Key): void {
    if (key.name === 'return') return this.updateScreen<ListScreen>(screen.id, () => ({ quickEditing: false }));
    if (key.name === 'escape') return this.updateScreen<ListScreen>(screen.id, () => ({ quickEditing: false, quick: '', cursor: 0, top: 0 }));
    const quick = editText(screen.quick, key);
    if (quick === undefined) return this.set({});
    this.updateScreen<ListScreen>(screen.id, () => ({ quick, cursor: 0, top: 0 }));
  }

  private listAction(screen: ListScreen, action: string, key: Key): void {
    const rows = this.visibleRows(screen);
    const columns = this.columnsOf(screen);
    switch (action) {
      case 'move': return this.setListCursor(screen.id, this.moveCursor(screen.cursor, rows.length, key, this.listHeight(screen)));
      case 'open': {
        const record = rows[screen.cursor];
        if (record) this.openRecord(record, screen.resource, screen.version);
        return;
      }
      case 'page': return this.movePage(screen, key.char === 'n' ? 1 : -1);
      case 'edge': return void this.loadEdge(screen.id, key.char === 'g' ? 'first' : 'last');
      case 'quick': return this.updateScreen<ListScreen>(screen.id, () => ({ quickEditing: true }));
      case 'filter': return this.openFilterBuilder(screen);
      case 'sort': {
        const field = columns[Math.min(screen.column, columns.length - 1)]?.field;
        if (!field) return;
        const descending = screen.sort?.field === field ? !screen.sort.descending : false;
        return this.updateScreen<ListScreen>(screen.id, () => ({ sort: { field, descending }, cursor: 0, top: 0 }));
      }
      case 'column': {
        const step = key.name === 'left' || key.char === 'h' ? -1 : 1;
        return this.updateScreen<ListScreen>(screen.id, (s) => ({ column: Math.max(0, Math.min(columns.length - 1, s.column + step)) }));
      }
      case 'reload': return void this.reloadList(screen.id);
      case 'watch': {
        const watch = !screen.watch;
        this.updateScreen<ListScreen>(screen.id, () => ({ watch }));
        return this.set({ notice: watch ? 'watching: the page is re-fetched every few seconds (w stops)' : 'watch stopped' });
      }
      case 'version': return this.chooseVersion(screen.resource, screen.version, (version) => this.switchVersion(screen.id, version));
      case 'operations': return this.openOperations(screen.resource, screen.version, rows[screen.cursor]);
      case 'bookmark': return this.askBookmarkName(screen);
    }
  }

  private switchVersion(id: number, version: string): void {
    const source = this.sources.get(id);
    if (source?.kind === 'resource') this.sources.set(id, { ...source, version });
    if (source?.kind === 'link') this.sources.set(id, { ...source, version });
    this.updateScreen<ListScreen>(id, (s) => ({ version, title: `${s.resource}@${version}` }));
    void this.loadFirstPage(id);
  }

  private chooseVersion(resource: string, current: string | undefined, apply: (version: string) => void): void {
    const known = this.state.catalog ? findResource(this.state.catalog, resource) : undefined;
    if (!known) return this.set({ notice: `${resource} is not in the index, so it has no versions to choose from` });
    const versions = known.versions.map((v) => v.version);
    this.setOverlay({ kind: 'version', resource, versions, cursor: Math.max(0, versions.indexOf(current ?? '')), apply });
  }

  // ——— server-side filter ———

  private openFilterBuilder(screen: ListScreen): void {
    if (this.sources.get(screen.id)?.kind !== 'resource') {
      return this.set({ notice: 'this list came from a link; server-side filters apply to lists opened from the index (use / for the loaded rows)' });
    }
    const records = rowsOf(screen.pages);
    const fields = filterFields(records);
    const samples: Record<string, unknown> = {};
    for (const field of fields) samples[field] = records.map((r) => valueAt(r, field)).find((v) => v !== undefined && v !== null);
    this.setOverlay({ kind: 'filter', fields, samples, conditions: screen.conditions, step: 'field', input: '', cursor: 0 });
  }

  filterChoices(overlay: Extract<Overlay, { kind: 'filter' }>): string[] {
    if (overlay.step === 'field') {
      const fields = fuzzyFilter(overlay.input, overlay.fields, (f) => f);
      if (overlay.input) return fields;
      const screen = topScreen(this.state);
      const actions = overlay.conditions.length ? [APPLY_FILTER] : screen.kind === 'list' && screen.serverFilter ? [CLEAR_FILTER] : [];
      return [...actions, ...fields];
    }
    if (overlay.step === 'operator') return fuzzyFilter(overlay.input, [...OPERATORS], (o) => o);
    return [];
  }

  filterPreview(overlay: Extract<Overlay, { kind: 'filter' }>): string {
    const pending = overlay.step === 'value' && overlay.field && overlay.operator && overlay.input
      ? [{ field: overlay.field, operator: overlay.operator, value: overlay.input }] : [];
    const conditions = [...overlay.conditions, ...pending];
    return conditions.length ? buildFilter(conditions, overlay.samples, this.state.now) : '';
  }

  private filterKey(overlay: Extract<Overlay, { kind: 'filter' }>, key: Key): void {
    const screen = topScreen(this.state);
    if (screen.kind !== 'list') return this.setOverlay(undefined);
    if (key.name === 'escape') return this.setOverlay(undefined);
    if (key.name === 'char' && key.ctrl && key.char === 'd') return this.setOverlay({ ...overlay, conditions: overlay.conditions.slice(0, -1) });
    if (key.name === 'char' && key.ctrl && key.char === 'a') return this.applyFilter(screen, overlay, overlay.conditions);
    const choices = this.filterChoices(overlay);
    if (key.name === 'up' || key.name === 'down') {
      const cursor = Math.max(0, Math.min(choices.length - 1, overlay.cursor + (key.name === 'up' ? -1 : 1)));
      return this.setOverlay({ ...overlay, cursor });
    }
    if (key.name === 'tab' && choices[overlay.cursor]) return this.setOverlay({ ...overlay, input: choices[overlay.cursor] ?? '' });
    if (key.name === 'return') {
      if (overlay.step === 'field') {
        const field = choices[overlay.cursor];
        if (!field) return this.set({ notice: 'choose a field from the list' });
        if (field === APPLY_FILTER) return this.applyFilter(screen, overlay, overlay.conditions);
        if (field === CLEAR_FILTER) return this.applyFilter(screen, overlay, []);
        return this.setOverlay({ ...overlay, field, step: 'operator', input: '', cursor: 0 });
      }
      if (overlay.step === 'operator') {
        const operator = choices[overlay.cursor] as (typeof OPERATORS)[number] | undefined;
        if (!operator) return this.set({ notice: 'choose an operator from the list' });
        return this.setOverlay({ ...overlay, operator, step: 'value', input: '', cursor: 0 });
      }
      if (!overlay.input && overlay.conditions.length === 0) return this.applyFilter(screen, overlay, []);
      if (!overlay.input) return this.applyFilter(screen, overlay, overlay.conditions);
      const condition = { field: overlay.field ?? '', operator: overlay.operator ?? '$eq', value: overlay.input };
      return this.setOverlay({ ...overlay, conditions: [...overlay.conditions, condition], step: 'field', input: '', cursor: 0, field: undefined, operator: undefined });
    }
    const input = editText(overlay.input, key);
    if (input !== undefined) this.setOverlay({ ...overlay, input, cursor: 0 });
  }

  private applyFilter(screen: ListScreen, overlay: Extract<Overlay, { kind: 'filter' }>, conditions: ListScreen['conditions']): void {
    const serverFilter = conditions.length ? buildFilter(conditions, overlay.samples, this.state.now) : undefined;
    this.setOverlay(undefined);
    this.updateScreen<ListScreen>(screen.id, () => ({ conditions, serverFilter, quick: '', sort: undefined }));
    void this.loadFirstPage(screen.id);
  }

  // ——— records and links ———

  openRecord(record: Record<string, unknown>, resource: string, version: string): void {
    const id = record['id'] ?? record['name'];
    const title = typeof id === 'string' || typeof id === 'number' ? String(id) : resource;
    this.push({
      kind: 'detail', id: this.nextId++, resource, version, title, record, links: recordLinks(record),
      collapsed: initiallyCollapsed(record), cursor: 0, top: 0, raw: false,
    });
  }

  detailLines(screen: DetailScreen): number {
    return flattenTree(screen.record, screen.collapsed).length + screen.links.length;
  }

  private detailAction(screen: DetailScreen, action: string, key: Key): void {
    const height = bodyHeight(this.state.size.rows, screen.error) - 1;
    switch (action) {
      case 'move': {
        const cursor = this.moveCursor(screen.cursor, this.detailLines(screen), key, height);
        return this.updateScreen<DetailScreen>(screen.id, (s) => ({ cursor, top: scrollTop(s.top, cursor, height) }));
      }
      case 'raw': return this.updateScreen<DetailScreen>(screen.id, (s) => ({ raw: !s.raw, top: 0 }));
      case 'operations': return this.openOperations(screen.resource, screen.version, screen.record);
      case 'bookmark': return this.askBookmarkName(screen);
      case 'reload': {
        const self = screen.links.find((l) => l.rel.replace(/^_/, '') === 'self');
        if (!self) return this.set({ notice: 'this record has no self link to reload from' });
        return void this.followLink(screen, self, {}, true);
      }
      case 'open': {
        const lines = flattenTree(screen.record, screen.collapsed);
        const line = lines[screen.cursor];
        if (line?.container) {
          const collapsed = new Set(screen.collapsed);
          if (collapsed.has(line.path)) collapsed.delete(line.path);
          else collapsed.add(line.path);
          return this.updateScreen<DetailScreen>(screen.id, () => ({ collapsed }));
        }
        const link = screen.links[screen.cursor - lines.length];
        if (link) return this.openLink(screen, link);
        return this.set({});
      }
    }
  }

  private openLink(screen: DetailScreen, link: Link): void {
    const method = (link.method ?? 'GET').toUpperCase();
    if (!['GET', 'HEAD'].includes(method)) {
      return this.updateScreen<DetailScreen>(screen.id, () => ({
        error: { title: `${link.rel} is a ${method} link, an operation rather than a place`, lines: [link.href], hint: 'press x for the operations the index offers for this resource (form, preview, confirmation)', tone: 'warning' },
      }));
    }
    const { path, query } = templateVariables(link.href);
    const variables = link.templated ? [...path, ...query] : [];
    if (variables.length === 0) return void this.followLink(screen, link, {});
    this.setOverlay({
      kind: 'template', title: `follow ${link.rel}`, href: link.href, variables, values: {}, index: 0,
      submit: (values) => void this.followLink(screen, link, values),
    });
  }

  /** Follows a link from a record: a list opens as a list, anything else as a record. */
  private async followLink(screen: DetailScreen, link: Link, values: Record<string, string>, replace = false): Promise<void> {
    this.updateScreen<DetailScreen>(screen.id, () => ({ loading: `following ${link.rel}`, error: undefined }));
    try {
      const route = this.state.catalog ? routeFor(this.state.catalog, expandTemplate(link.href, values), this.session.baseUrl) : undefined;
      const context = route && route.resource !== screen.resource ? route : { resource: screen.resource, version: screen.version };
      const request = this.session.prepareLink(link.href, context, values);
      const response = await this.session.send(request, { reload: replace });
      const media = parseVendorMediaType(response.contentType);
      const resource = media?.resource ?? request.resource;
      const version = media?.version ?? request.version;
      this.updateScreen<DetailScreen>(screen.id, () => ({ loading: undefined }));
      if (isListBody(response.body)) {
        const page = readPage(response.body, response.url);
        const source: ListSource = { kind: 'link', href: request.url, resource, version };
        return this.openList(source, `${resource}@${version} (${link.rel})`, resource, version, { request, page });
      }
      const record = (response.body && typeof response.body === 'object' ? response.body : { value: response.body }) as Record<string, unknown>;
      if (replace) {
        return this.updateScreen<DetailScreen>(screen.id, () => ({ record, links: recordLinks(record), collapsed: initiallyCollapsed(record) }));
      }
      this.openRecord(record, resource, version);
    } catch (error) {
      this.updateScreen<DetailScreen>(screen.id, () => ({ loading: undefined, error: errorInfo(error) }));
    }
  }

  private templateKey(overlay: Extract<Overlay, { kind: 'template' }>, key: Key): void {
    if (key.name === 'escape') return this.setOverlay(undefined);
    const name = overlay.variables[overlay.index] ?? '';
    if (key.name === 'up' || key.name === 'backtab') return this.setOverlay({ ...overlay, index: Math.max(0, overlay.index - 1) });
    if (key.name === 'down' || key.name === 'tab') return this.setOverlay({ ...overlay, index: Math.min(overlay.variables.length - 1, overlay.index + 1) });
    if (key.name === 'return') {
      if (overlay.index < overlay.variables.length - 1) return this.setOverlay({ ...overlay, index: overlay.index + 1 });
      this.setOverlay(undefined);
      const filled = Object.fromEntries(Object.entries(overlay.values).filter(([, v]) => v !== ''));
      return overlay.submit(filled);
    }
    const value = editText(overlay.values[name] ?? '', key);
    if (value !== undefined) this.setOverlay({ ...overlay, values: { ...overlay.values, [name]: value } });
  }

  // ——— organizational units ———

  private async loadUnits(): Promise<OrgUnit[] | undefined> {
    if (this.units) return this.units;
    const catalog = this.state.catalog;
    const resource = catalog ? findUnitResource(catalog) : undefined;
    if (!resource) return undefined;
    const request = await listRequest(this.session, { resource: resource.name, pageSize: 100 });
    // The picker offers every unit the token can see, not only those under the current OU.
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== this.session.ouHeader.toLowerCase()));
    const units: OrgUnit[] = [];
    for await (const page of walkPages(this.session, { ...request, headers }, { maxItems: OU_PICKER_MAX_UNITS })) {
      for (const record of page.items) {
        const unit = toUnit(record);
        if (unit) units.push(unit);
      }
    }
    this.units = isTree(units) ? unitTree(units) : units;
    return this.units;
  }

  private async learnUnitName(ou: string): Promise<void> {
    try {
      const unit = (await this.loadUnits())?.find((u) => u.id === ou);
      if (unit && this.session.ou === ou) this.set({ ouName: unit.name });
    } catch {
      // The OU stays shown by its id; the picker reports the failure if the user opens it.
    }
  }

  openOuPicker(): void {
    this.setOverlay({ kind: 'ou', input: '', cursor: 0, loading: true });
    this.loadUnits().then(
      (units) => this.updateOuOverlay({ loading: false, ...(units ? { units, tree: isTree(units) } : {}) }),
      (error: unknown) => this.updateOuOverlay({ loading: false, error: errorInfo(error) }),
    );
  }

  private updateOuOverlay(change: Partial<Extract<Overlay, { kind: 'ou' }>>): void {
    const overlay = this.state.overlay;
    if (overlay?.kind === 'ou') this.setOverlay({ ...overlay, ...change });
  }

  ouChoices(overlay: Extract<Overlay, { kind: 'ou' }>): OrgUnit[] {
    const none: OrgUnit = { id: '', name: '(no OU: everything the token can see)', detail: '', depth: 0, children: 0 };
    const units = overlay.units ?? [];
    if (!overlay.input) return [none, ...units];
    const matches = fuzzyFilter(overlay.input, units, (u) => `${u.name} ${u.id}`).map((u) => ({ ...u, depth: 0 }));
    if (isUuid(overlay.input) && !matches.some((u) => u.id === overlay.input.trim())) {
      matches.unshift({ id: overlay.input.trim(), name: overlay.input.trim(), detail: 'use this UUID', depth: 0, children: 0 });
    }
    return matches;
  }

  private ouKey(overlay: Extract<Overlay, { kind: 'ou' }>, key: Key): void {
    if (key.name === 'escape') return this.setOverlay(undefined);
    const choices = this.ouChoices(overlay);
    if (key.name === 'up' || key.name === 'down') {
      return this.setOverlay({ ...overlay, cursor: Math.max(0, Math.min(choices.length - 1, overlay.cursor + (key.name === 'up' ? -1 : 1))) });
    }
    if (key.name === 'return') {
      const unit = choices[overlay.cursor];
      if (!unit) return this.set({ notice: overlay.units ? 'no unit matches; type a name or a UUID' : 'type the OU\'s UUID' });
      this.setOverlay(undefined);
      return this.setOu(unit.id || undefined, unit.id ? unit.name : undefined);
    }
    const input = editText(overlay.input, key);
    if (input !== undefined) this.setOverlay({ ...overlay, input, cursor: 0 });
  }

  /** Makes every following request in `ou` and reloads what is on screen from its first page. */
  setOu(ou: string | undefined, name?: string): void {
    this.session.setOu(ou);
    const known = ou ? this.units?.find((u) => u.id === ou)?.name : undefined;
    this.set({ ouName: name && name !== ou ? name : known, notice: ou ? `OU set to ${name ?? ou}` : 'OU cleared' });
    if (ou && !name && !known) void this.learnUnitName(ou);
    for (const screen of this.state.stack) if (screen.kind === 'list') void this.loadFirstPage(screen.id);
  }

  // ——— profiles ———

  private placeKey(): string {
    return this.profile ?? '';
  }

  /**
   * Makes `name` the control plane everything goes to. The place left (screens, cursor, pages, OU) is
   * kept with its session, and a profile visited before is given back as it was left.
   */
  async switchProfile(name: string): Promise<void> {
    if (name === this.profile) return this.set({ notice: `already on profile ${name}` });
    let place = this.places.get(name);
    if (!place) {
      if (!this.context.profiles) return this.set({ notice: 'no config file with profiles: add one with dpx profile add' });
      this.set({ notice: `connecting to profile ${name}…` });
      try {
        place = { connection: await this.context.profiles.connect(name), stack: [] };
      } catch (error) {
        const info = errorInfo(error);
        return this.set({ notice: `cannot switch to ${name}: ${info.title}${info.hint ? ` — ${info.hint}` : ''}` });
      }
    }
    this.places.set(this.placeKey(), {
      connection: this.connection, stack: this.state.stack, ...(this.state.catalog ? { catalog: this.state.catalog } : {}),
      ...(this.state.ouName ? { ouName: this.state.ouName } : {}), ...(this.units ? { units: this.units } : {}),
    });
    this.places.delete(name);
    this.connection = place.connection;
    this.units = place.units;
    const fresh = place.stack.length === 0;
    const stack: Screen[] = fresh
      ? [{ kind: 'catalog', id: this.nextId++, filter: '', cursor: 0 }]
      : place.stack.map((s) => (s.loading ? ({ ...s, loading: undefined, pending: undefined } as Screen) : s));
    this.state = { ...this.state, stack, catalog: place.catalog, ouName: place.ouName, overlay: undefined };
    this.set({ notice: `profile ${name} · ${this.session.baseUrl}${this.session.readOnly ? ' · read-only' : ' · writes allowed'}` });
    if (!place.catalog) await this.loadCatalog();
    // Lists that were still loading when the user left are asked again; the rest stay as they were.
    for (const screen of stack) if (screen.kind === 'list' && screen.pages.length === 0) void this.loadFirstPage(screen.id);
  }

  private profileEntries(query: string): PaletteEntry[] {
    const word = /^ctx\b/i.test(query) ? 'ctx' : 'profile';
    const names = new Set(this.profileChoices.map((p) => p.name));
    const entries: PaletteEntry[] = this.profileChoices.map((p) => ({
      label: `${word} ${p.name}`,
      detail: `${p.baseUrl}${p.name === this.profile ? ' (in use)' : this.places.has(p.name) ? ' (back to where you were)' : ''}`,
      run: () => void this.switchProfile(p.name),
    }));
    // A place left that is no config profile (the demo, a --base-url session) can still be gone back to.
    for (const [name, place] of this.places) {
      if (name && !names.has(name)) entries.push({ label: `${word} ${name}`, detail: `${place.connection.session.baseUrl} (back to where you were)`, run: () => void this.switchProfile(name) });
    }
    if (entries.length === 0 && PROFILE_QUERY.test(query)) {
      entries.push({ label: word, detail: 'no profiles in the config file: dpx profile add NAME --base-url URL', run: () => undefined });
    }
    return entries;
  }

  // ——— bookmarks ———

  private askBookmarkName(screen: ListScreen | DetailScreen): void {
    if (!this.context.configPath) return this.set({ notice: 'no config file to keep bookmarks in' });
    const bookmark = this.bookmarkOf(screen);
    this.setOverlay({
      kind: 'prompt', title: `bookmark ${describeBookmark(bookmark)} as`, input: screen.resource,
      hint: 'letters, digits, . - _ · Enter saves · Esc cancels · :bm opens bookmarks',
      submit: (name) => void this.saveBookmarkAs(name.trim(), bookmark),
    });
  }

  /** The view as a bookmark: profile, resource, version, OU, server-side filter, page. */
  bookmarkOf(screen: ListScreen | DetailScreen): Bookmark {
    const page = screen.kind === 'list' ? this.currentPage(screen)?.start : undefined;
    const filter = screen.kind === 'list' ? screen.serverFilter : undefined;
    return {
      resource: screen.resource, version: screen.version,
      ...(this.profile ? { profile: this.profile } : {}), ...(this.session.ou ? { ou: this.session.ou } : {}),
      ...(filter ? { filter } : {}), ...(page ? { page } : {}),
    };
  }

  private async saveBookmarkAs(name: string, bookmark: Bookmark): Promise<void> {
    if (!this.context.configPath) return;
    try {
      await saveBookmark(this.context.configPath, name, bookmark);
      this.bookmarks = await listBookmarks(this.context.configPath);
      this.set({ notice: `bookmark ${name} saved (:bm ${name} opens it)` });
    } catch (error) {
      const info = errorInfo(error);
      this.set({ notice: `bookmark not saved: ${info.title}${info.hint ? ` — ${info.hint}` : ''}` });
    }
  }

  /** Opens a bookmark: its profile first, then its OU, then its list with its filter and page. */
  async openBookmark(bookmark: Bookmark): Promise<void> {
    if (bookmark.profile && bookmark.profile !== this.profile) {
      await this.switchProfile(bookmark.profile);
      if (this.profile !== bookmark.profile) return;
    }
    if (bookmark.ou !== this.session.ou) this.setOu(bookmark.ou);
    const known = this.state.catalog ? findResource(this.state.catalog, bookmark.resource) : undefined;
    const version = bookmark.version ?? known?.defaultVersion ?? '';
    const source: ListSource = {
      kind: 'resource', resource: bookmark.resource, ...(bookmark.version ? { version: bookmark.version } : {}), ...(bookmark.page ? { page: bookmark.page } : {}),
    };
    this.openList(source, `${bookmark.resource}@${version}`, bookmark.resource, version, undefined, bookmark.filter);
  }

  private bookmarkEntries(query: string): PaletteEntry[] {
    if (!BOOKMARK_QUERY.test(query)) return [];
    if (this.bookmarks.length === 0) return [{ label: 'bm', detail: 'no bookmarks yet: b on a list or record saves one', run: () => undefined }];
    return this.bookmarks.map(({ name, bookmark }) => ({ label: `bm ${name}`, detail: describeBookmark(bookmark), run: () => void this.openBookmark(bookmark) }));
  }

  private promptKey(overlay: Extract<Overlay, { kind: 'prompt' }>, key: Key): void {
    if (key.name === 'escape') return this.setOverlay(undefined);
    if (key.name === 'return') {
      if (!overlay.input.trim()) return this.set({ notice: 'type a name first' });
      this.setOverlay(undefined);
      return overlay.submit(overlay.input);
    }
    const input = editText(overlay.input, key);
    if (input !== undefined) this.setOverlay({ ...overlay, input });
  }

  // ——— trail ———

  /** `T`: the trail so far into ./dpx-trail-<time>.har (tokens are the trail's to redact). */
  async writeTrail(): Promise<void> {
    const trail = this.context.trail;
    if (!trail) return this.set({ notice: 'no trail is being kept in this session' });
    const path = join(this.context.trailDir ?? process.cwd(), trailFileName(this.now()));
    try {
      await trail.writeSnapshot(path);
      this.set({ notice: `trail written: ${path} (${trail.entryCount} requests, tokens redacted)` });
    } catch (error) {
      this.set({ notice: `trail not written: ${errorInfo(error).title}` });
    }
  }

  // ——— palette ———

  paletteEntries(input: string): PaletteEntry[] {
    const entries = this.paletteProviders.flatMap((provider) => provider(input));
    return fuzzyFilter(input, entries, (e) => e.label);
  }

  private resourceEntries(query: string): PaletteEntry[] {
    if (/^ou\b/i.test(query) || PROFILE_QUERY.test(query) || BOOKMARK_QUERY.test(query)) return [];
    const entries: PaletteEntry[] = [];
    for (const resource of this.state.catalog?.resources ?? []) {
      entries.push({ label: resource.name, detail: `list, ${resource.defaultVersion}`, run: () => this.openResource(resource.name) });
      for (const version of resource.versions) {
        if (resource.versions.length > 1) entries.push({ label: `${resource.name} ${version.version}`, detail: 'list this version', run: () => this.openResource(resource.name, version.version) });
        for (const operation of version.operations) {
          entries.push({
            label: `${resource.name} ${operation.id}`, detail: `${operation.method} ${operation.href} (${version.version})`,
            run: () => this.runOperation(resource.name, version.version, operation.id),
          });
        }
      }
    }
    return entries;
  }

  private ouEntries(query: string): PaletteEntry[] {
    if (PROFILE_QUERY.test(query) || BOOKMARK_QUERY.test(query)) return [];
    if (!/^ou\b/i.test(query)) return [{ label: 'ou', detail: 'choose the organizational unit', run: () => this.openOuPicker() }];
    if (!this.units && this.state.catalog) void this.loadUnits().then(() => this.set({}), () => undefined);
    const typed = query.replace(/^ou\s*/i, '').trim();
    const entries: PaletteEntry[] = (this.units ?? []).map((u) => ({ label: `ou ${u.name}`, detail: u.id, run: () => this.setOu(u.id, u.name) }));
    if (isUuid(typed)) entries.unshift({ label: `ou ${typed}`, detail: 'use this UUID', run: () => this.setOu(typed) });
    entries.push({ label: 'ou', detail: 'open the OU picker', run: () => this.openOuPicker() });
    return entries;
  }

  private commandEntries(query: string): PaletteEntry[] {
    if (/^ou\b/i.test(query) || PROFILE_QUERY.test(query) || BOOKMARK_QUERY.test(query)) return [];
    return [
      { label: 'trail', detail: 'write the trail of this session so far as a HAR file (also T)', run: () => void this.writeTrail() },
      { label: 'home', detail: 'back to the catalog', run: () => this.set({ stack: this.state.stack.slice(0, 1) }) },
      { label: 'help', detail: 'every key', run: () => this.setOverlay({ kind: 'help', top: 0 }) },
      { label: 'quit', detail: 'leave dpx', run: () => this.context.onQuit() },
    ];
  }

  /** Runs an operation picked in the palette: lists open as lists, other reads ask for their variables. */
  runOperation(resource: string, version: string, operationId: string): void {
    const operation = this.state.catalog && findResource(this.state.catalog, resource)?.versions.find((v) => v.version === version)?.operations.find((o) => o.id === operationId);
    if (!operation) return;
    if (operation.method !== 'GET') return this.openOperations(resource, version, undefined, operationId);
    if (operation.pathVariables.length === 0) return this.openResource(resource, version, operationId);
    this.setOverlay({
      kind: 'template', title: `${resource} ${operationId}`, href: operation.href, variables: operation.pathVariables, values: {}, index: 0,
      submit: (variables) => void this.readOperation(resource, version, operationId, variables),
    });
  }

  private async readOperation(resource: string, version: string, operationId: string, variables: Record<string, string>): Promise<void> {
    const screen = topScreen(this.state);
    this.updateScreen(screen.id, () => ({ loading: `${resource} ${operationId}`, error: undefined }));
    try {
      const request = await this.session.prepare({ resource, version, operationId, variables });
      const response = await this.session.send(request);
      this.updateScreen(screen.id, () => ({ loading: undefined }));
      const record = (response.body && typeof response.body === 'object' ? response.body : { value: response.body }) as Record<string, unknown>;
      this.openRecord(record, resource, version);
    } catch (error) {
      this.updateScreen(screen.id, () => ({ loading: undefined, error: errorInfo(error) }));
    }
  }

  private paletteKey(overlay: Extract<Overlay, { kind: 'palette' }>, key: Key): void {
    if (key.name === 'escape') return this.setOverlay(undefined);
    const entries = this.paletteEntries(overlay.input);
    if (key.name === 'up' || key.name === 'down') {
      return this.setOverlay({ ...overlay, cursor: Math.max(0, Math.min(entries.length - 1, overlay.cursor + (key.name === 'up' ? -1 : 1))) });
    }
    if (key.name === 'tab') {
      const entry = entries[overlay.cursor];
      return this.setOverlay({ ...overlay, input: entry ? entry.label : overlay.input, cursor: 0 });
    }
    if (key.name === 'return') {
      const entry = entries[overlay.cursor];
      this.setOverlay(undefined);
      if (entry) entry.run();
      else if (!this.paletteReady()) {
        this.pendingPalette = overlay.input;
        this.set({ notice: `"${overlay.input}" opens when the discovery index arrives` });
      } else this.set({ notice: `nothing matches "${overlay.input}"` });
      return;
    }
    const input = editText(overlay.input, key);
    if (input !== undefined) this.setOverlay({ ...overlay, input, cursor: 0 });
  }

  /** Whether every palette provider has what it lists: the index, and the profiles and bookmarks. */
  private paletteReady(): boolean {
    return this.state.catalog !== undefined && this.configRead;
  }

  private runPendingPalette(): void {
    if (!this.paletteReady()) return;
    const query = this.pendingPalette;
    this.pendingPalette = undefined;
    if (query === undefined) return;
    const entry = this.paletteEntries(query)[0];
    if (entry) entry.run();
    else this.set({ notice: `nothing matches "${query}"` });
  }

  // ——— overlays ———

  private overlayKey(overlay: Overlay, key: Key): void {
    switch (overlay.kind) {
      case 'help': {
        if (key.name === 'escape' || key.char === '?' || key.char === 'q' || key.name === 'return' || key.name === 'backspace') return this.setOverlay(undefined);
        const height = bodyHeight(this.state.size.rows, undefined) - 1;
        const top = this.moveCursor(overlay.top, helpLines().length - height + 1, key, height);
        return this.setOverlay({ kind: 'help', top });
      }
      case 'palette': return this.paletteKey(overlay, key);
      case 'filter': return this.filterKey(overlay, key);
      case 'ou': return this.ouKey(overlay, key);
      case 'prompt': return this.promptKey(overlay, key);
      case 'operations': return;
      case 'template': return this.templateKey(overlay, key);
      case 'version': {
        if (key.name === 'escape') return this.setOverlay(undefined);
        if (key.name === 'return') {
          const version = overlay.versions[overlay.cursor];
          this.setOverlay(undefined);
          if (version) overlay.apply(version);
          return;
        }
        const step = key.name === 'up' || key.char === 'k' ? -1 : key.name === 'down' || key.char === 'j' ? 1 : 0;
        return this.setOverlay({ ...overlay, cursor: Math.max(0, Math.min(overlay.versions.length - 1, overlay.cursor + step)) });
      }
    }
  }
}

/** "prod · tasks@v1 · OU … · filter … · page 3": a bookmark in one line. */
export function describeBookmark(bookmark: Bookmark): string {
  return [
    bookmark.profile, `${bookmark.resource}${bookmark.version ? `@${bookmark.version}` : ''}`, bookmark.ou ? `OU ${bookmark.ou}` : '',
    bookmark.filter ? `filter ${bookmark.filter}` : '', bookmark.page ? `page ${bookmark.page}` : '',
  ].filter(Boolean).join(' · ');
}
