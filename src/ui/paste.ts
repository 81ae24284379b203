// Bracketed paste: the terminal wraps what is pasted in `ESC [200~` … `ESC [201~` once the explorer asks
// for it, so a paste is told from typing. What comes between the marks is text for the field in front,
// never keys: a line break in it does not press Enter, a letter does not run a command.

/** Turns bracketed paste on (the explorer's start) and off (every way out, and around $EDITOR). */
export const PASTE_ON = '\x1b[?2004h';
export const PASTE_OFF = '\x1b[?2004l';

const START = '\x1b[200~';
const END = '\x1b[201~';
/** Characters of one paste kept at most: what comes after, up to the end mark, is dropped. */
export const MAX_PASTE = 1024 * 1024;
/** Ctrl-C alone: the way out of a paste whose end mark never comes (cut by tmux or ssh, or a file cat). */
const INTERRUPT = '\x03';

/**
 * Hears the input events as the terminal sends them (ink splits a read at escape sequences, so the marks
 * come as events of their own). `swallow`: the event is part of a paste, and no key; `pasted`: the whole
 * paste, once its end mark came. A Ctrl-C alone ends a paste whose end mark never came (what it held is
 * dropped, never typed), so the explorer is never deaf to it.
 */
export class PasteReader {
  private buffer: string | undefined;

  hear(input: string): { swallow: boolean; pasted?: string } {
    if (this.buffer === undefined) {
      if (!input.startsWith(START)) return { swallow: false };
      this.buffer = '';
      input = input.slice(START.length);
    }
    if (input === INTERRUPT) {
      this.buffer = undefined;
      return { swallow: false };
    }
    const end = input.indexOf(END);
    if (end === -1) {
      this.buffer = (this.buffer + input).slice(0, MAX_PASTE);
      return { swallow: true };
    }
    const pasted = (this.buffer + input.slice(0, end)).slice(0, MAX_PASTE);
    this.buffer = undefined;
    return { swallow: true, pasted };
  }
}

/**
 * A paste as the text a field takes: line breaks kept as `\n` in a field of several lines (the body) and
 * dropped in a field of one; every other control character or escape sequence dropped, a tab kept only
 * where lines are.
 */
export function pastedText(text: string, multiline: boolean): string {
  const plain = text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\r\n?/g, '\n');
  return plain.replace(multiline ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u001f\u007f-\u009f]/g, '');
}
