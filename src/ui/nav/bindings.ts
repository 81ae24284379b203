// Key bindings read as data: which binding a key press runs, the help screen's lines and the footer's
// hints, all from the same tables, so what the help says is what the keys do.
import { describeKey, type Key } from '../keys.js';
import { TEXT, type Binding } from './screen.js';

/** Whether the binding is for this key, whatever its state. */
function boundTo<S>(binding: Binding<S>, key: Key): boolean {
  if (binding.keys.includes(describeKey(key))) return true;
  return binding.keys.includes(TEXT) && key.name === 'char' && !key.ctrl;
}

/** The first binding of `bindings` that takes `key` in `state`. */
export function bindingFor<S>(bindings: readonly Binding<S>[], state: S, key: Key): Binding<S> | undefined {
  return bindings.find((binding) => boundTo(binding, key) && (binding.when?.(state, key) ?? true));
}

/** The key a label names: 'j', 'ctrl-u', 'down'. */
export function keyOf(label: string): Key {
  const ctrl = /^ctrl-(.)$/.exec(label);
  if (ctrl) return { name: 'char', char: ctrl[1]!, ctrl: true };
  if (label.length === 1) return { name: 'char', char: label, ctrl: false };
  return { name: label as Key['name'], char: '', ctrl: false };
}

export interface HelpLine {
  heading: boolean;
  keys: string;
  text: string;
}

const KEY_WORDS: Record<string, string> = {
  [TEXT]: 'type',
  return: 'Enter',
  escape: 'Esc',
  backspace: 'Backspace',
  tab: 'Tab',
  backtab: 'shift-Tab',
  ' ': 'Space',
};

export function keyWords(keys: readonly string[]): string {
  return keys.map((key) => KEY_WORDS[key] ?? key).join(' ');
}

/** The help screen: a heading per table, a line per binding. */
export function helpLines(tables: readonly { title: string; bindings: readonly Binding<never>[] }[]): HelpLine[] {
  return tables.flatMap(({ title, bindings }) => [
    { heading: true, keys: '', text: title },
    ...bindings.map((binding) => ({ heading: false, keys: keyWords(binding.keys), text: binding.help })),
  ]);
}

/**
 * The footer's hints for the screen on top: its own bindings' hints, then those of the global ones it
 * does not take over itself (a screen that types takes every letter).
 */
export function footerHints<S>(own: readonly Binding<S>[], global: readonly Binding<never>[], state: S): string {
  const hints = own
    .filter((binding) => binding.hint && (binding.when?.(state, keyOf(binding.keys[0] ?? '')) ?? true))
    .map((binding) => binding.hint!);
  for (const binding of global) {
    if (!binding.hint) continue;
    const key = keyOf(binding.keys[0] ?? '');
    if (!bindingFor(own, state, key)) hints.push(binding.hint);
  }
  return hints.join(' · ');
}
