// Every key the explorer answers to, per screen, with the words the help screen shows. Actions are
// names; the explorer maps them to what they do, so new screens and features add rows here.
import type { Key } from './keys.js';
import { describeKey } from './keys.js';

export type KeyContext = 'global' | 'catalog' | 'list' | 'detail';

export interface Binding {
  keys: string[];
  action: string;
  help: string;
}

export const KEYMAP: Record<KeyContext, Binding[]> = {
  global: [
    { keys: [':'], action: 'palette', help: 'command palette: resource, "tasks v1", "alerts read", "ou <name|uuid>", profile' },
    { keys: ['?'], action: 'help', help: 'this help' },
    { keys: ['o'], action: 'ou', help: 'choose the organizational unit (OU) every request is made in (on home: :ou)' },
    { keys: ['escape', 'backspace'], action: 'back', help: 'back to the previous screen, cursor and page as they were (first clears a quick filter)' },
    { keys: ['q', 'ctrl-c'], action: 'quit', help: 'quit' },
  ],
  catalog: [
    { keys: ['up', 'down', 'pageup', 'pagedown', 'home', 'end'], action: 'move', help: 'move; letters type into the filter (q quits while it is empty; :ou picks the OU)' },
    { keys: ['return'], action: 'open', help: 'open the resource\'s list (:name vN for another version)' },
  ],
  list: [
    { keys: ['up', 'k', 'down', 'j', 'pageup', 'pagedown', 'home', 'end'], action: 'move', help: 'move over the loaded rows' },
    { keys: ['return'], action: 'open', help: 'open the record' },
    { keys: ['n', 'p'], action: 'page', help: 'next / previous page' },
    { keys: ['g', 'G'], action: 'edge', help: 'first / last page (by the list\'s links)' },
    { keys: ['/'], action: 'quick', help: 'quick filter on the loaded rows (Enter keeps it, Esc clears it)' },
    { keys: ['f'], action: 'filter', help: 'server-side filter builder: field, operator, value' },
    { keys: ['s'], action: 'sort', help: 'sort the loaded rows by the current column (again: reverse)' },
    { keys: ['left', 'h', 'right', 'l'], action: 'column', help: 'choose the current column' },
    { keys: ['r'], action: 'reload', help: 'reload' },
    { keys: ['w'], action: 'watch', help: 'watch: re-fetch every few seconds' },
    { keys: ['v'], action: 'version', help: 'switch the resource version and reload' },
  ],
  detail: [
    { keys: ['up', 'k', 'down', 'j', 'pageup', 'pagedown', 'home', 'end'], action: 'move', help: 'move over fields and links' },
    { keys: ['return', ' '], action: 'open', help: 'fold / unfold a nested value; follow a link' },
    { keys: ['y'], action: 'raw', help: 'raw JSON on / off' },
    { keys: ['r'], action: 'reload', help: 'reload the record by its self link' },
  ],
};

/** The action bound to `key` in `context`, or in the global map. */
export function actionFor(context: KeyContext, key: Key): { action: string; label: string } | undefined {
  const label = describeKey(key);
  for (const map of [KEYMAP[context], KEYMAP.global]) {
    const binding = map.find((b) => b.keys.includes(label));
    if (binding) return { action: binding.action, label };
  }
  return undefined;
}

export interface HelpLine {
  heading: boolean;
  keys: string;
  text: string;
}

const TEXT_ENTRY_HELP: HelpLine[] = [
  { heading: true, keys: '', text: 'in prompts, pickers and the palette' },
  { heading: false, keys: 'type · Backspace · ctrl-u', text: 'edit (ctrl-u clears)' },
  { heading: false, keys: 'up down · Tab', text: 'choose · complete (palette) or next variable (link prompt)' },
  { heading: false, keys: 'return · escape', text: 'accept · cancel' },
  { heading: false, keys: 'ctrl-d', text: 'filter builder: drop the last condition' },
];

/** Every line of the help screen, from the key map. */
export function helpLines(): HelpLine[] {
  const names: Record<KeyContext, string> = { global: 'everywhere', catalog: 'catalog (home)', list: 'list', detail: 'record' };
  const lines = (Object.keys(KEYMAP) as KeyContext[]).flatMap((context) => [
    { heading: true, keys: '', text: names[context] },
    ...KEYMAP[context].map((b) => ({ heading: false, keys: b.keys.join(' '), text: b.help })),
  ]);
  return [...lines, ...TEXT_ENTRY_HELP];
}
