// Text from outside dpx (a server, a case file, a credential helper's stderr) made visible and inert
// before it reaches a terminal: C0 and C1 control characters, DEL and the bidirectional overrides are
// shown as \u escapes instead of acting (moving the cursor, setting a window title, writing the
// clipboard with OSC 52, or reordering what is read). Line breaks and tabs are kept when asked.

// C0 but tab and line feed, DEL, C1 (U+0080–U+009F), and the bidi embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character that could drive a terminal written as `\uXXXX`; `lines` keeps \n and \t. */
export function inertText(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(options.lines ? UNSAFE : UNSAFE_IN_A_LINE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
