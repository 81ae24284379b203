// What the explorer shows, as plain data: a stack of screens (the last is on top, the others keep
// their cursor and pages for the way back) and at most one overlay over them.
import type { Catalog } from '../api/catalog.js';
import type { Link } from '../api/links.js';
import type { Page } from '../api/pages.js';
import type { PreparedRequest } from '../api/operation.js';
import type { Condition, Operator } from './filter.js';

export interface ErrorInfo {
  title: string;
  status?: number;
  lines: string[];
  hint?: string;
  tone: 'error' | 'warning';
}

interface ScreenBase {
  id: number;
  /** What is being fetched for this screen, shown by the spinner; undefined when idle. */
  loading?: string;
  error?: ErrorInfo;
}

export interface CatalogScreen extends ScreenBase {
  kind: 'catalog';
  filter: string;
  cursor: number;
}

export interface ListScreen extends ScreenBase {
  kind: 'list';
  resource: string;
  version: string;
  title: string;
  operationId?: string;
  /** The request for the first page shown: reload, version switch and page links start from it. */
  basis?: PreparedRequest;
  serverFilter?: string;
  conditions: Condition[];
  pages: Page[];
  cursor: number;
  top: number;
  column: number;
  sort?: { field: string; descending: boolean };
  quick: string;
  quickEditing: boolean;
  watch: boolean;
  /** Which page move is on its way, so a key repeat or a prefetch does not ask twice. */
  pending?: 'next' | 'prev' | 'first' | 'last' | 'reload';
  /** A page key pressed while that page was still loading: the cursor goes there when it arrives. */
  jumpWhenLoaded?: 'next' | 'prev';
}

export interface DetailScreen extends ScreenBase {
  kind: 'detail';
  resource: string;
  version: string;
  title: string;
  record: Record<string, unknown>;
  links: Link[];
  collapsed: Set<string>;
  cursor: number;
  top: number;
  raw: boolean;
}

export type Screen = CatalogScreen | ListScreen | DetailScreen;

export interface PaletteEntry {
  /** What the palette shows and matches against, e.g. "tasks v1" or "ou Acme Corp". */
  label: string;
  detail?: string;
  run(): void;
}

export interface OrgUnit {
  id: string;
  name: string;
  detail: string;
  /** The parent unit's id, when the record names one. */
  parent?: string;
  /** Depth in the tree (0 for a root) and number of direct children, once the tree is built. */
  depth: number;
  children: number;
}

export type Overlay =
  | { kind: 'help'; top: number }
  | { kind: 'palette'; input: string; cursor: number }
  | { kind: 'version'; resource: string; versions: string[]; cursor: number; apply(version: string): void }
  | {
      kind: 'filter';
      fields: string[];
      samples: Record<string, unknown>;
      conditions: Condition[];
      step: 'field' | 'operator' | 'value';
      input: string;
      cursor: number;
      field?: string;
      operator?: Operator;
    }
  | { kind: 'ou'; units?: OrgUnit[]; tree?: boolean; input: string; cursor: number; loading: boolean; error?: ErrorInfo }
  /** The operation screens (they read their own keys); `operationId` opens that operation's form directly. */
  | { kind: 'operations'; resource: string; version: string; record?: Record<string, unknown>; operationId?: string; opened: number }
  /** One line of text, such as a bookmark's name. */
  | { kind: 'prompt'; title: string; input: string; hint?: string; submit(value: string): void }
  | {
      kind: 'template';
      title: string;
      href: string;
      variables: string[];
      values: Record<string, string>;
      index: number;
      submit(values: Record<string, string>): void;
    };

export interface ExplorerState {
  stack: Screen[];
  overlay?: Overlay;
  catalog?: Catalog;
  ouName?: string;
  /** A short message about the last thing done ("OU set to Acme Corp"), cleared by the next key. */
  notice?: string;
  size: { columns: number; rows: number };
  now: number;
}

export function topScreen(state: ExplorerState): Screen {
  const screen = state.stack[state.stack.length - 1];
  if (!screen) throw new Error('the screen stack is never empty');
  return screen;
}
