// What screens share and ask for, with no drawing: the control plane the explorer is on, each
// connection's discovery index and unit tree (asked once, known afterwards), the config file's profiles
// and bookmarks, the trail, and the terminal's hand-offs (an editor, the clipboard). Screens ask these;
// they never reach into one another.
import type { FilterStore } from '../../api/xray/filters.js';
import { listViews } from '../../config/views.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalog } from '../../api/hal/catalog.js';
import { UsageError } from '../../api/errors.js';
import type { Session } from '../../api/session/session.js';
import { loadUnits, type OrgUnit } from '../../api/fanout/units.js';
import { directoryOf } from '../../api/fanout/unit-names.js';
import { listBookmarks, saveBookmark, type Bookmark } from '../../config/profiles.js';
import { chosenColumns, keepColumns } from '../../config/chosen-columns.js';
import type { Connection, Origin, ProfileChoice, ProfileSource } from './connection.js';

/** The trail the session records into, for `T`. */
export interface TrailSink {
  writeSnapshot(path: string): Promise<void>;
  readonly entryCount: number;
  /** Exchanges written without their response body (the explorer's temporary trail keeps the newest whole). */
  readonly bodiesDropped?: number;
}

/** Handing the terminal to other programs; absent parts (no terminal) make their keys say so. */
export interface TerminalHandoffs {
  /** Opens text in $EDITOR and gives back what was saved. */
  edit?(text: string): Promise<string>;
  /** Puts text on the terminal's clipboard. */
  copy(text: string): void;
}

import { ROW_WINDOW } from '../window.js';

export interface ServiceOptions {
  connection: Connection;
  profiles?: ProfileSource;
  /** The config file bookmarks are saved in and read from. */
  configPath?: string;
  trail?: TrailSink;
  /** Where `T` writes trails (the working directory by default). */
  trailDir?: string;
  /** Where an x-ray keeps what each list's filter accepts between runs. */
  filterStore?: FilterStore;
  terminal?: TerminalHandoffs;
  /** Milliseconds between polls of a followed task. */
  taskIntervalMs?: number;
  /** The records a list keeps loaded (window.ts's ROW_WINDOW by default). */
  rowWindow?: number;
  now?: () => number;
}

/** "dpx-trail-2024-05-01T10-20-30Z.har": sorts by time and is a valid file name everywhere. */
function trailFileName(now: number, prefix = 'dpx-trail', extension = 'har'): string {
  return `${prefix}-${new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}.${extension}`;
}

export class Services {
  /** The control plane new screens open on; the navigator switches it with the profile. */
  connection: Connection;
  readonly profiles: ProfileSource | undefined;
  readonly configPath: string | undefined;
  readonly taskIntervalMs: number | undefined;
  readonly rowWindow: number;
  readonly filterStore: FilterStore | undefined;
  terminal: TerminalHandoffs;
  private readonly trail: TrailSink | undefined;
  private readonly trailDir: string | undefined;
  private readonly clock: () => number;
  private readonly catalogs = new WeakMap<Session, Catalog>();
  /** The index asked for before the screens existed: what the first of them get, a failure included. */
  private earlyCatalog: Promise<Catalog> | undefined;
  private readonly unitTrees = new WeakMap<Session, Promise<OrgUnit[] | undefined>>();
  private readonly knownUnits = new WeakMap<Session, OrgUnit[] | undefined>();
  private profileList: ProfileChoice[] = [];
  private bookmarkList: { name: string; bookmark: Bookmark }[] = [];
  private viewList: Awaited<ReturnType<typeof listViews>> = [];
  private configRead: Promise<void> | undefined;
  /** Whether the config file has been read once (or failed to be). */
  configLoaded = false;
  /** Writes sent per resource: a list or record of it shown again after one reads anew. */
  private readonly writes = new Map<string, number>();

  constructor(options: ServiceOptions) {
    this.connection = options.connection;
    this.profiles = options.profiles;
    this.configPath = options.configPath;
    this.taskIntervalMs = options.taskIntervalMs;
    this.rowWindow = options.rowWindow ?? ROW_WINDOW;
    this.filterStore = options.filterStore;
    this.trail = options.trail;
    this.trailDir = options.trailDir;
    this.terminal = options.terminal ?? { copy: () => undefined };
    this.clock = options.now ?? Date.now;
  }

  now(): number {
    return this.clock();
  }

  /** A write to `resource` succeeded: its lists and records are stale. */
  noteWrite(resource: string): void {
    if (resource) this.writes.set(resource, (this.writes.get(resource) ?? 0) + 1);
  }

  /** How many writes to `resource` have succeeded: a screen compares it with the count it last read at. */
  writesTo(resource: string): number {
    return this.writes.get(resource) ?? 0;
  }

  /** Where a screen opened now gets its data: the current control plane, in its current unit. */
  origin(): Origin {
    return { connection: this.connection, ou: this.connection.session.ou };
  }

  /** The connection's discovery index, once it has arrived. */
  catalogOf(connection: Connection = this.connection): Catalog | undefined {
    return this.catalogs.get(connection.session);
  }

  /**
   * Asks for the discovery index ahead of the screens, which load meanwhile. Until `screensAsked()` every
   * ask gets this answer, so that a failure that came in while they loaded is shown, not asked again.
   */
  askCatalogEarly(): void {
    const early = this.catalog();
    early.catch(() => undefined);
    this.earlyCatalog = early;
  }

  /** The first screens have asked for the index; a later ask (a retry) goes to the session again. */
  screensAsked(): void {
    this.earlyCatalog = undefined;
  }

  async catalog(connection: Connection = this.connection): Promise<Catalog> {
    if (this.earlyCatalog && connection === this.connection) return this.earlyCatalog;
    const catalog = await connection.session.catalog();
    this.catalogs.set(connection.session, catalog);
    return catalog;
  }

  /** Every unit the connection's token can see, in tree order; undefined when the index has no unit list. */
  units(connection: Connection = this.connection): Promise<OrgUnit[] | undefined> {
    let pending = this.unitTrees.get(connection.session);
    if (!pending) {
      pending = this.catalog(connection).then(() => loadUnits(connection.session));
      this.unitTrees.set(connection.session, pending);
      pending.then(
        (units) => this.knownUnits.set(connection.session, units),
        () => this.unitTrees.delete(connection.session),
      );
    }
    return pending;
  }

  unitsKnown(connection: Connection = this.connection): OrgUnit[] | undefined {
    return this.knownUnits.get(connection.session);
  }

  /** A unit's name when the connection's units are known. */
  /** A unit's name, or the end of its path where another unit bears the name (UnitDirectory.label). */
  unitName(connection: Connection, id: string | undefined): string | undefined {
    const known = id === undefined ? undefined : this.unitsKnown(connection);
    return known && directoryOf(known).get(id!) ? directoryOf(known).label(id!) : undefined;
  }

  // ——— the config file ———

  /** Reads the profiles, bookmarks and saved views again, so a `dpx profile add` elsewhere shows up. */
  refreshConfig(): Promise<void> {
    this.configRead = (async () => {
      try {
        if (this.profiles) this.profileList = await this.profiles.list();
        if (this.configPath) this.bookmarkList = await listBookmarks(this.configPath);
        if (this.configPath) this.viewList = await listViews(this.configPath);
      } finally {
        this.configLoaded = true;
      }
    })();
    return this.configRead;
  }

  /** Resolves once the config file has been read (or failed to be). */
  configReady(): Promise<void> {
    return (this.configRead ?? this.refreshConfig()).catch(() => undefined);
  }

  profileChoices(): ProfileChoice[] {
    return this.profileList;
  }

  bookmarks(): { name: string; bookmark: Bookmark }[] {
    return this.bookmarkList;
  }

  /** The saved views (`dpx view save`), and files in their folder that are none, with their problem. */
  views(): Awaited<ReturnType<typeof listViews>> {
    return this.viewList;
  }

  async saveBookmark(name: string, bookmark: Bookmark): Promise<void> {
    if (!this.configPath) throw new UsageError('no config file to keep bookmarks in', 'dpx profile add creates one');
    await saveBookmark(this.configPath, name, bookmark);
    this.bookmarkList = await listBookmarks(this.configPath);
  }

  /** The columns chosen for `resource` on `connection`'s control plane (`c`), when any were. */
  async columnChoice(connection: Connection, resource: string): Promise<string[] | undefined> {
    return this.configPath ? chosenColumns(this.configPath, connection.session.baseUrl, resource) : undefined;
  }

  /** Keeps (or, with undefined, forgets) the columns chosen for `resource` on `connection`'s control plane. */
  async keepColumnChoice(
    connection: Connection,
    resource: string,
    fields: readonly string[] | undefined,
  ): Promise<void> {
    if (!this.configPath)
      throw new UsageError('no config file to keep the column choice in', 'dpx profile add creates one');
    await keepColumns(this.configPath, connection.session.baseUrl, resource, fields);
  }

  // ——— the trail ———

  /**
   * A curl command in a file (`dpx-curl-<time>.sh`, in a folder of its own under the system's temporary
   * one, or beside the trail when one is set), whole as it runs: what is selected from the screen is
   * broken over lines. It holds no token: it reads it from where dpx did.
   */
  async writeCurl(curl: string): Promise<string> {
    const folder = this.trailDir ?? (await mkdtemp(join(tmpdir(), 'dpx-curl-')));
    const path = join(folder, trailFileName(this.now(), 'dpx-curl', 'sh'));
    await writeFile(path, `#!/bin/sh\n${curl}\n`, { mode: 0o600 });
    return path;
  }

  /** Writes the trail so far to ./dpx-trail-<time>.har and says where; undefined when no trail is kept. */
  async writeTrail(): Promise<{ path: string; entries: number; bodiesDropped: number } | undefined> {
    if (!this.trail) return undefined;
    const path = join(this.trailDir ?? process.cwd(), trailFileName(this.now()));
    await this.trail.writeSnapshot(path);
    return { path, entries: this.trail.entryCount, bodiesDropped: this.trail.bodiesDropped ?? 0 };
  }
}
