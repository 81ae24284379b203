// What a screen is to the navigator. Every view of the explorer (catalog, list, record, the operation
// flow, pickers and prompts) is one module of this shape: its state as plain data, its keys as a table
// of bindings that carry their handlers, and its drawing. The navigator knows nothing else of it, so a
// new view is a new module and a line in the registry.
import type { ReactElement } from 'react';
import type { ErrorInfo } from '../error-info.js';
import type { Key } from '../keys.js';
import type { Origin } from '../services/connection.js';
import type { Services } from '../services/services.js';

/**
 * What each kind of screen is opened with. Empty here: each screen module adds its own kind to it
 * (`declare module` in the module), so that opening a screen is checked without this file knowing any.
 */
// biome-ignore lint/suspicious/noEmptyInterface: screens add their kinds by declaration merging (a type cannot)
export interface ScreenParams {}

export type ScreenKind = keyof ScreenParams;

/** What a screen asks of the server: its resource and filter, for a view opened from it (`:count`, `@all`) to ask too. */
export interface ScreenQuestion {
  resource: string;
  /** The server-side filter, as JSON text. */
  filter?: string;
}

/** What every screen's state has: what it is fetching (the header's spinner) and its last problem (the panel). */
export interface ScreenBase {
  loading?: string;
  error?: ErrorInfo;
}

/** Stands for any printable character in a binding's keys: for screens that type (filters, prompts). */
export const TEXT = 'text';

/**
 * One key binding, as data. `keys` are key labels as describeKey names them ('j', 'down', 'return',
 * 'ctrl-d', or TEXT); `help` is the help screen's line; `hint`, when given, is the footer's short form.
 * A binding whose `when` says no is passed over, so the next one (or a global one) may take the key.
 */
export interface Binding<S> {
  keys: readonly string[];
  help: string;
  hint?: string;
  when?(state: S, key: Key): boolean;
  run(ctx: ScreenContext<S>, key: Key): void;
}

/** A heading and its bindings: a screen's keys, or the global ones. */
export interface KeyTable {
  title: string;
  bindings: readonly Binding<never>[];
}

/** What a screen may ask of the navigator. */
export interface Navigation {
  /** Opens a screen on top (an overlay over the current screen, anything else after closing overlays). */
  open<K extends ScreenKind>(kind: K, params: ScreenParams[K]): void;
  /** Closes the screen on top, as Esc does. */
  back(): void;
  /** Closes every screen above the one with this id. */
  backTo(id: number): void;
  /** Back to the catalog. */
  home(): void;
  /** A short message in the footer until the next key. */
  notify(message: string): void;
  /** Makes every following request go to this unit (undefined: none) and reloads what depends on it. */
  setOu(ou: string | undefined, name?: string): void;
  /** Makes another profile's control plane the current one, each profile keeping its place. */
  switchProfile(name: string): Promise<void>;
  quit(): void;
  /** The help screen's key tables: the screen's own keys (under the overlays), then the global ones. */
  keyTables(): KeyTable[];
  /** The profiles left for another one, which the palette offers to go back to. */
  placesLeft(): { name: string; baseUrl: string }[];
  /** What the screen under the overlays asks (its resource and filter), when it says. */
  question(): ScreenQuestion | undefined;
  /**
   * Where the screen under the overlays was read: its own origin (a list opened on another profile's
   * control plane, a form acting there), else the current one. The header speaks of it, and `W` acts on it.
   */
  frontOrigin(): Origin;
}

/** A screen's handle on itself and on the explorer: valid as long as the screen is on the stack. */
export interface ScreenContext<S> {
  readonly id: number;
  /** The screen's current state; after it has left the stack, the state it had then. */
  readonly state: S;
  /** False once the screen has left the stack: late answers are then dropped. */
  readonly alive: boolean;
  update(change: Partial<S> | ((state: S) => Partial<S>)): void;
  readonly nav: Navigation;
  readonly services: Services;
  readonly size: { columns: number; rows: number };
  readonly now: number;
  /** Rows the screen's body has, under the header and above its panel and the footer. */
  bodyHeight(): number;
}

export interface ViewProps<S> {
  state: S;
  ctx: ScreenContext<S>;
  height: number;
  width: number;
}

export interface ScreenModule<S extends ScreenBase, P> {
  /** The help screen's heading for this screen's keys. */
  readonly title: string;
  /** Drawn in place of the screen below it, whose header, breadcrumb and panel stay (palette, pickers). */
  readonly overlay?: boolean;
  /**
   * Whether a text field of the screen has the focus: then only its own bindings answer (and ctrl-c), so
   * that every letter types. A field takes the focus only when the user moves into it (`/`, Enter on a
   * field), so the global keys work on every screen otherwise.
   */
  typing?(state: S): boolean;
  /**
   * Takes a paste as text into the field with the focus; false when no field of the screen has it. A
   * screen without this takes a paste as typed characters only where its bindings type them (TEXT).
   */
  paste?(ctx: ScreenContext<S>, text: string): boolean;
  init(params: P): S;
  /** Starts what the screen needs once it is on the stack (the first page, a poll). */
  start?(ctx: ScreenContext<S>): void;
  /** Stops what it started, when it leaves the stack. */
  stop?(state: S): void;
  /** Every few seconds while it is on top (watch mode). */
  tick?(ctx: ScreenContext<S>): void;
  /** It is on top again, the screens above it closed: one whose data a write changed meanwhile reloads. */
  resumed?(ctx: ScreenContext<S>): void;
  /** The terminal was resized: a screen keeps its cursor on screen and fills the room it now has. */
  resized?(ctx: ScreenContext<S>): void;
  /** The OU changed: a screen whose data depends on it loads again. */
  ouChanged?(ctx: ScreenContext<S>, ou: string | undefined): void;
  readonly bindings: readonly Binding<S>[];
  /** Whether it has nothing to show yet: then a failure is drawn in place of its view, not under it. */
  empty?(state: S): boolean;
  /** Its part of the breadcrumb. */
  crumb(state: S): string;
  /** What the header names as on screen ('tasks@v1'). */
  subject?(state: S): string | undefined;
  /** Marks in the header ('WATCH', 'cols 4–7 of 15'), for a screen `width` cells wide. */
  badges?(state: S, width: number): string[];
  /** Where what the screen shows was read (control plane and unit), when that is not the current one's. */
  origin?(state: S): Origin | undefined;
  /** Its resource and server-side filter, which a view opened from it keeps. */
  question?(state: S): ScreenQuestion | undefined;
  /** The footer's left part (where in the list), before the hints or a notice. */
  status?(state: S, ctx: ScreenContext<S>): string | undefined;
  View(props: ViewProps<S>): ReactElement | null;
}
