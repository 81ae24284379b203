// Key presses as the explorer understands them. ink hands over one `input` string per read, so keys
// that arrive together (paste, key repeat, tmux send-keys) come as "jjj" and are split here.

export type KeyName =
  | 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end'
  | 'return' | 'escape' | 'tab' | 'backtab' | 'backspace' | 'char';

export interface Key {
  name: KeyName;
  /** The character typed, for `name === 'char'`. */
  char: string;
  ctrl: boolean;
}

/** The subset of ink's key flags the explorer reads. */
export interface InkKeyFlags {
  upArrow?: boolean; downArrow?: boolean; leftArrow?: boolean; rightArrow?: boolean;
  pageUp?: boolean; pageDown?: boolean; home?: boolean; end?: boolean;
  return?: boolean; escape?: boolean; tab?: boolean; shift?: boolean;
  backspace?: boolean; delete?: boolean; ctrl?: boolean;
}

const named = (name: KeyName): Key => ({ name, char: '', ctrl: false });
const char = (c: string, ctrl = false): Key => ({ name: 'char', char: c, ctrl });

const CONTROL_CHARS: Record<string, KeyName> = {
  '\r': 'return', '\n': 'return', '\t': 'tab', '\x7f': 'backspace', '\b': 'backspace', '\x1b': 'escape',
};

/** Turns one ink input event into the key presses it stands for, in order. */
export function toKeys(input: string, key: InkKeyFlags): Key[] {
  if (key.upArrow) return [named('up')];
  if (key.downArrow) return [named('down')];
  if (key.leftArrow) return [named('left')];
  if (key.rightArrow) return [named('right')];
  if (key.pageUp) return [named('pageup')];
  if (key.pageDown) return [named('pagedown')];
  if (key.home) return [named('home')];
  if (key.end) return [named('end')];
  if (key.tab) return [named(key.shift ? 'backtab' : 'tab')];
  if (key.return) return [named('return')];
  // ink 6 reports the Backspace key (0x7f) as `delete`.
  if (key.backspace || key.delete) return [named('backspace')];
  if (key.escape && input === '') return [named('escape')];
  if (key.ctrl) return input ? [char(input.toLowerCase(), true)] : [];
  return [...input].map((c) => {
    const control = CONTROL_CHARS[c];
    return control ? named(control) : char(c);
  });
}

/** A short label for a key, as help and hints show it. */
export function describeKey(key: Key): string {
  if (key.name !== 'char') return key.name;
  return key.ctrl ? `ctrl-${key.char}` : key.char;
}
