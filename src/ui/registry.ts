// Every screen of the explorer, by kind: the composition root of the explorer, beside app.ts, which hands
// it to the navigator. Each module declares the kind it answers to and what it is opened with
// (ScreenParams in nav/screen.ts is filled by the modules); this table says which module draws each kind,
// and the compiler refuses a kind without a module. A new view is one module and one line here.
import { catalogScreen } from './screens/catalog/catalog.js';
import { exchangeScreen } from './screens/exchange/exchange.js';
import { listScreen } from './screens/list/list.js';
import { confirmScreen } from './screens/operations/confirm.js';
import { formScreen } from './screens/operations/form.js';
import { operationsScreen } from './screens/operations/choose.js';
import { previewScreen } from './screens/operations/preview.js';
import { responseScreen } from './screens/operations/response.js';
import { taskScreen } from './screens/operations/task.js';
import { filterBuilderScreen } from './screens/overlays/filter-builder.js';
import { helpScreen } from './screens/overlays/help.js';
import { ouPickerScreen } from './screens/overlays/ou-picker.js';
import { promptScreen } from './screens/overlays/prompt.js';
import { templateScreen } from './screens/overlays/template.js';
import { versionScreen } from './screens/overlays/version.js';
import { paletteScreen } from './screens/palette/palette.js';
import { recordScreen } from './screens/record/record.js';
import { xrayScreen } from './screens/xray/xray.js';
import { diffScreen } from './screens/diff/diff.js';
import { chooseScreen } from './screens/overlays/choose.js';
import { countScreen } from './screens/count/count.js';
import { mergedScreen } from './screens/merged/merged.js';
import { columnsScreen } from './screens/overlays/column-chooser.js';
import { GLOBAL_BINDINGS } from './global-keys.js';
import { ScreenSet, type ScreenTable } from './nav/screen-set.js';

/** The screens in the order the help lists their keys. */
const TABLE: ScreenTable = {
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

export const SCREENS = new ScreenSet(TABLE, GLOBAL_BINDINGS);
