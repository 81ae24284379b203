// Every screen of the explorer, by kind, with what each is opened with. A new view is one module and
// one line in each of the two tables below; nothing else needs to know of it.
import { catalogScreen } from '../screens/catalog/catalog.js';
import { listScreen } from '../screens/list/list.js';
import type { ListParams } from '../screens/list/state.js';
import { confirmScreen, type ConfirmParams } from '../screens/operations/confirm.js';
import { formScreen, type FormParams } from '../screens/operations/form.js';
import { operationsScreen, type OperationsParams } from '../screens/operations/choose.js';
import { previewScreen, type PreviewParams } from '../screens/operations/preview.js';
import { responseScreen, type ResponseParams } from '../screens/operations/response.js';
import { taskScreen, type TaskParams } from '../screens/operations/task.js';
import { filterBuilderScreen, type FilterParams } from '../screens/overlays/filter-builder.js';
import { helpScreen } from '../screens/overlays/help.js';
import { ouPickerScreen } from '../screens/overlays/ou-picker.js';
import { promptScreen, type PromptParams } from '../screens/overlays/prompt.js';
import { templateScreen, type TemplateParams } from '../screens/overlays/template.js';
import { versionScreen, type VersionParams } from '../screens/overlays/version.js';
import { paletteScreen } from '../screens/palette/palette.js';
import { recordScreen, type RecordParams } from '../screens/record/record.js';
import type { ScreenBase, ScreenModule } from './screen.js';

type Nothing = Record<string, never>;

/** What each kind of screen is opened with. */
export interface ScreenParams {
  catalog: Nothing;
  list: ListParams;
  record: RecordParams;
  operations: OperationsParams;
  'operation-form': FormParams;
  'request-preview': PreviewParams;
  'write-confirm': ConfirmParams;
  response: ResponseParams;
  task: TaskParams;
  palette: Nothing;
  help: Nothing;
  'ou-picker': Nothing;
  filter: FilterParams;
  version: VersionParams;
  template: TemplateParams;
  prompt: PromptParams;
}

export type ScreenKind = keyof ScreenParams;

/**
 * The screens in the order the help lists their keys. A module's state type is its own business (each is
 * checked where it is written); here only what opens it is, so the state is left open.
 */
const SCREENS: { [K in ScreenKind]: ScreenModule<any, ScreenParams[K]> } = {
  catalog: catalogScreen,
  list: listScreen,
  record: recordScreen,
  operations: operationsScreen,
  'operation-form': formScreen,
  'request-preview': previewScreen,
  'write-confirm': confirmScreen,
  response: responseScreen,
  task: taskScreen,
  palette: paletteScreen,
  help: helpScreen,
  'ou-picker': ouPickerScreen,
  filter: filterBuilderScreen,
  version: versionScreen,
  template: templateScreen,
  prompt: promptScreen,
};

export function moduleOf<K extends ScreenKind>(kind: K): ScreenModule<ScreenBase, ScreenParams[K]> {
  return SCREENS[kind] as unknown as ScreenModule<ScreenBase, ScreenParams[K]>;
}

export function allScreens(): ScreenModule<ScreenBase, unknown>[] {
  return Object.values(SCREENS) as unknown as ScreenModule<ScreenBase, unknown>[];
}
