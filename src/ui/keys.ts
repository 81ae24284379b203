// Key presses as the explorer understands them. ink hands over one `input` string per read, so keys
// that arrive together (paste, key repeat, tmux send-keys) come as "jjj" and are split here.

export type KeyName =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pageup'
  | 'pagedown'
  | 'home'
  | 'end'
  | 'return'
  | 'escape'
  | 'tab'
  | 'backtab'
  | 'backspace'
  | 'delete'
  | 'char';

export interface Key {
  name: KeyName;
  /** The character typed, for `name === 'char'`. */
  char: string;
  ctrl: boolean;
}

/** The subset of ink's key flags the explorer reads. */
export interface InkKeyFlags {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
}

const named = (name: KeyName): Key => ({ name, char: '', ctrl: false });
const char = (c: string, ctrl = false): Key => ({ name: 'char', char: c, ctrl });

const CONTROL_CHARS: Record<string, KeyName> = {
  '\r': 'return',
  '\n': 'return',
  '\t': 'tab',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x1b': 'escape',
};

/** The Delete key's sequences (`ESC [3~` and its modified forms): ink names them as it names Backspace. */
const FORWARD_DELETE = /^\x1b\[3[~;$^]/;

/**
 * Turns one ink input event into the key presses it stands for, in order. `raw` is the event's bytes as
 * read, when known: only they tell the Delete key from Backspace.
 */
export function toKeys(input: string, key: InkKeyFlags, raw?: string): Key[] {
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
  // ink 6 reports the Backspace key (0x7f) as `delete`, and the Delete key too.
  if (key.delete && raw !== undefined && FORWARD_DELETE.test(raw)) return [named('delete')];
  if (key.backspace || key.delete) return [named('backspace')];
  if (key.escape && input === '') return [named('escape')];
  if (key.ctrl) return input ? [char(input.toLowerCase(), true)] : [];
  return [...input].flatMap((c) => {
    const control = CONTROL_CHARS[c];
    if (control) return [named(control)];
    const code = c.codePointAt(0)!;
    // Keys that came together (typed ahead, sent by tmux): ctrl-letters arrive as their control codes.
    if (code >= 1 && code <= 26) return [char(String.fromCharCode(96 + code), true)];
    // Any other control character (a paste's) is no key and no text.
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return [];
    return [char(c)];
  });
}

/** The one rule of `q`, said in the help wherever it is bound. */
export const QUIT_HELP =
  'quit dpx: q quits on every screen (in a text field it types q); Esc goes back, ctrl-c quits anywhere';

/** A short label for a key, as help and hints show it. */
export function describeKey(key: Key): string {
  if (key.name !== 'char') return key.name;
  return key.ctrl ? `ctrl-${key.char}` : key.char;
}

/** Keys that move a cursor over rows, as bindings list them. */
export const MOVE_KEYS = ['up', 'k', 'down', 'j', 'pageup', 'pagedown', 'home', 'end'] as const;

/** Where `key` moves a cursor over `count` rows, `page` rows to a page. */
export function moveCursor(cursor: number, count: number, key: Key, page: number): number {
  const last = Math.max(0, count - 1);
  switch (key.name) {
    case 'up':
      return Math.max(0, cursor - 1);
    case 'down':
      return Math.min(last, cursor + 1);
    case 'pageup':
      return Math.max(0, cursor - page);
    case 'pagedown':
      return Math.min(last, cursor + page);
    case 'home':
      return 0;
    case 'end':
      return last;
    default:
      if (key.char === 'k') return Math.max(0, cursor - 1);
      if (key.char === 'j') return Math.min(last, cursor + 1);
      return cursor;
  }
}

/** Applies a text edit (typing, Backspace, ctrl-u); undefined when the key is not one. */
export function editText(text: string, key: Key): string | undefined {
  if (key.name === 'backspace') return text.slice(0, -1);
  if (key.name === 'char' && key.ctrl && key.char === 'u') return '';
  if (key.name === 'char' && !key.ctrl) return text + key.char;
  return undefined;
}
