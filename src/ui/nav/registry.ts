// Every screen of the explorer, by kind. Each module declares the kind it answers to and what it is
// opened with (ScreenParams in screen.ts is filled by the modules); this table says which module draws
// each kind, and the compiler refuses a kind without a module. A new view is one module and one line here.
import { catalogScreen } from '../screens/catalog/catalog.js';
import { exchangeScreen } from '../screens/exchange/exchange.js';
import { listScreen } from '../screens/list/list.js';
import { confirmScreen } from '../screens/operations/confirm.js';
import { formScreen } from '../screens/operations/form.js';
import { operationsScreen } from '../screens/operations/choose.js';
import { previewScreen } from '../screens/operations/preview.js';
import { responseScreen } from '../screens/operations/response.js';
import { taskScreen } from '../screens/operations/task.js';
import { filterBuilderScreen } from '../screens/overlays/filter-builder.js';
import { helpScreen } from '../screens/overlays/help.js';
import { ouPickerScreen } from '../screens/overlays/ou-picker.js';
import { promptScreen } from '../screens/overlays/prompt.js';
import { templateScreen } from '../screens/overlays/template.js';
import { versionScreen } from '../screens/overlays/version.js';
import { paletteScreen } from '../screens/palette/palette.js';
import { recordScreen } from '../screens/record/record.js';
import { xrayScreen } from '../screens/xray/xray.js';
import { diffScreen } from '../screens/diff/diff.js';
import { chooseScreen } from '../screens/overlays/choose.js';
import { countScreen } from '../screens/count/count.js';
import { mergedScreen } from '../screens/merged/merged.js';
import { columnsScreen } from '../screens/overlays/column-chooser.js';
import { GLOBAL_BINDINGS } from './global.js';
import type { Binding, KeyTable, ScreenBase, ScreenKind, ScreenModule, ScreenParams } from './screen.js';

/**
 * The screens in the order the help lists their keys. A module's state type is its own business (each is
 * checked where it is written); here only what opens it is, so the state is left open.
 */
const SCREENS: { [K in ScreenKind]: ScreenModule<any, ScreenParams[K]> } = {
  catalog: catalogScreen,
  list: listScreen,
  'merged-list': mergedScreen,
  count: countScreen,
  record: recordScreen,
  operations: operationsScreen,
  'operation-form': formScreen,
  'request-preview': previewScreen,
  'write-confirm': confirmScreen,
  response: responseScreen,
  task: taskScreen,
  xray: xrayScreen,
  diff: diffScreen,
  exchange: exchangeScreen,
  palette: paletteScreen,
  help: helpScreen,
  'ou-picker': ouPickerScreen,
  filter: filterBuilderScreen,
  version: versionScreen,
  columns: columnsScreen,
  template: templateScreen,
  prompt: promptScreen,
  choose: chooseScreen,
};

export function moduleOf<K extends ScreenKind>(kind: K): ScreenModule<ScreenBase, ScreenParams[K]> {
  return SCREENS[kind] as unknown as ScreenModule<ScreenBase, ScreenParams[K]>;
}

export function allScreens(): ScreenModule<ScreenBase, unknown>[] {
  return Object.values(SCREENS) as unknown as ScreenModule<ScreenBase, unknown>[];
}

/** Whether the global keys reach a screen on top: not an overlay's, nor one whose text field has the focus. */
export function takesGlobalKeys(kind: ScreenKind, state: ScreenBase): boolean {
  const module = moduleOf(kind);
  return !module.overlay && !module.typing?.(state);
}

/** The help's key tables for a screen: its own keys first, then the global ones. */
export function keyTablesOf(kind: ScreenKind | undefined): KeyTable[] {
  const own = kind
    ? [{ title: moduleOf(kind).title, bindings: moduleOf(kind).bindings as readonly Binding<never>[] }]
    : [];
  return [...own, { title: 'everywhere', bindings: GLOBAL_BINDINGS }];
}
