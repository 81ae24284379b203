// Text from a server or a case file, made visible and inert before it reaches a terminal. A record's key, a
// unit's name or a proxy's error page may carry escape sequences (set the window title, write the
// clipboard with OSC 52, move the cursor) or bidi overrides that reorder what is shown. Every such
// character is replaced by a visible stand-in, so the reader still sees that something was there: C0
// controls as their Unicode control pictures (ESC → ␛, BEL → ␇), DEL as ␡, and C1 controls
// (U+0080–U+009F) and bidi embeddings, overrides and isolates as `\u009b`, `\u202e`.
// At the top of src/api because error messages are built here; src/text gives it to the printers.

/** C0, DEL, C1, the bidi marks (U+061C, U+200E, U+200F), embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const UNSAFE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface VisibleOptions {
  /** Keep line feeds and tabs as they are (a CSV field, a body shown over several lines). */
  lines?: boolean;
}

/** `text` with every control character and bidi control replaced by a visible, inert stand-in. */
export function visible(text: string, options: VisibleOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(options.lines === true ? UNSAFE_BUT_LINES : UNSAFE_ALL, standIn);
}

function standIn(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
