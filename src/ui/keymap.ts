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
    { keys: [':'], action: 'palette', help: 'palette: resource, "tasks v1", an operation ("<resource> <operation-id>" opens its form), "ou <name|uuid>", "profile <name>" or "ctx <name>", "bm <name>", "trail"' },
    { keys: ['?'], action: 'help', help: 'this help' },
    { keys: ['o'], action: 'ou', help: 'choose the organizational unit (OU) every request is made in: a tree when the index has units (on home: :ou)' },
    { keys: ['T'], action: 'trail', help: 'write the trail so far (every request and response, tokens redacted) to ./dpx-trail-<time>.har (on home: :trail)' },
    { keys: ['escape', 'backspace'], action: 'back', help: 'back to the previous screen, cursor and page as they were (first clears a quick filter)' },
    { keys: ['q', 'ctrl-c'], action: 'quit', help: 'quit' },
  ],
  catalog: [
    { keys: ['up', 'down', 'pageup', 'pagedown', 'home', 'end'], action: 'move', help: 'move; letters type into the filter (q quits while it is empty; :ou picks the OU)' },
    { keys: ['return'], action: 'open', help: 'open the resource\'s list (:name vN for another version)' },
    { keys: ['tab', 'right'], action: 'operations', help: 'operations the index offers for the resource: form, preview, confirm, response, task' },
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
    { keys: ['x'], action: 'operations', help: 'operations the index offers for this resource version (● the row under the cursor fills them)' },
    { keys: ['b'], action: 'bookmark', help: 'bookmark this view (profile, resource, version, OU, filter, page); :bm opens bookmarks' },
  ],
  detail: [
    { keys: ['up', 'k', 'down', 'j', 'pageup', 'pagedown', 'home', 'end'], action: 'move', help: 'move over fields and links' },
    { keys: ['return', ' '], action: 'open', help: 'fold / unfold a nested value; follow a link' },
    { keys: ['y'], action: 'raw', help: 'raw JSON on / off' },
    { keys: ['r'], action: 'reload', help: 'reload the record by its self link' },
    { keys: ['x'], action: 'operations', help: 'operations the index offers for this resource version (● this record fills them)' },
    { keys: ['b'], action: 'bookmark', help: 'bookmark this resource\'s list (profile, resource, version, OU); :bm opens bookmarks' },
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
  { heading: true, keys: '', text: 'operation screens (x)' },
  { heading: false, keys: 'up down · return · escape', text: 'choose an operation · open its form · back (Esc on the list closes)' },
  { heading: false, keys: 'form: return · e · p', text: 'edit the field · body in $EDITOR · preview the exact request' },
  { heading: false, keys: 'preview: return · c', text: 'send (a write asks to confirm; refused when read-only) · copy as curl' },
  { heading: false, keys: 'confirm: y · n', text: 'send the write · cancel; a DELETE asks to type the id, then Enter' },
  { heading: false, keys: 'response: y · t', text: 'raw / tree · follow the task it names (Enter opens the final record)' },
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
