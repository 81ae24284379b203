// A text being edited with a cursor, as plain data: the body editor's model. The cursor is an offset into
// the text that always sits between two graphemes, so an emoji, a wide CJK character or a letter with a
// combining accent moves, deletes and is drawn as one. Up and down keep the display column (wide
// characters take two), as a terminal editor does.
import stringWidth from 'string-width';

export interface TextBuffer {
  text: string;
  /** An offset into `text` (UTF-16 units) on a grapheme boundary. */
  cursor: number;
  /** The display column up/down aim for, kept across short lines; undefined: the cursor's own. */
  goal?: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The offsets of the grapheme boundaries of `text`, 0 and text.length included. */
function boundaries(text: string): number[] {
  const offsets = [0];
  for (const { index, segment } of segmenter.segment(text)) offsets.push(index + segment.length);
  return offsets;
}

export function createBuffer(text: string, cursor = text.length): TextBuffer {
  return { text, cursor: Math.max(0, Math.min(text.length, cursor)) };
}

/** Line number and the offsets where that line starts and ends (before its `\n`). */
export function lineAt(text: string, cursor: number): { line: number; start: number; end: number } {
  const start = text.lastIndexOf('\n', cursor - 1) + 1;
  const newline = text.indexOf('\n', cursor);
  const end = newline === -1 ? text.length : newline;
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) line++;
  return { line, start, end };
}

/** Where the cursor is as a person sees it: line and display column, both from 0. */
export function cursorPosition(buffer: TextBuffer): { line: number; column: number } {
  const { line, start } = lineAt(buffer.text, buffer.cursor);
  return { line, column: stringWidth(buffer.text.slice(start, buffer.cursor)) };
}

/** The offset within the line [start, end) whose display column is nearest to `column`, not past it. */
function offsetAtColumn(text: string, start: number, end: number, column: number): number {
  let offset = start;
  for (const { segment } of segmenter.segment(text.slice(start, end))) {
    const next = offset + segment.length;
    if (stringWidth(text.slice(start, next)) > column) break;
    offset = next;
  }
  return offset;
}

/** Inserts text at the cursor (typing, a paste of several lines); `\r\n` and `\r` become `\n`. */
export function insert(buffer: TextBuffer, typed: string): TextBuffer {
  const clean = typed.replace(/\r\n?/g, '\n');
  const text = buffer.text.slice(0, buffer.cursor) + clean + buffer.text.slice(buffer.cursor);
  return { text, cursor: buffer.cursor + clean.length };
}

/** Backspace: the grapheme before the cursor goes. */
export function deleteBackward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const offsets = boundaries(buffer.text);
  const previous = [...offsets].reverse().find((offset) => offset < buffer.cursor) ?? 0;
  return { text: buffer.text.slice(0, previous) + buffer.text.slice(buffer.cursor), cursor: previous };
}

/** Delete: the grapheme after the cursor goes. */
export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const next = boundaries(buffer.text).find((offset) => offset > buffer.cursor) ?? buffer.text.length;
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(next), cursor: buffer.cursor };
}

export type Motion = 'left' | 'right' | 'up' | 'down' | 'home' | 'end' | 'start' | 'finish';

export function move(buffer: TextBuffer, motion: Motion): TextBuffer {
  const { text, cursor } = buffer;
  switch (motion) {
    case 'left':
      return { text, cursor: [...boundaries(text)].reverse().find((offset) => offset < cursor) ?? 0 };
    case 'right':
      return { text, cursor: boundaries(text).find((offset) => offset > cursor) ?? text.length };
    case 'home':
      return { text, cursor: lineAt(text, cursor).start };
    case 'end':
      return { text, cursor: lineAt(text, cursor).end };
    case 'start':
      return { text, cursor: 0 };
    case 'finish':
      return { text, cursor: text.length };
    case 'up':
    case 'down': {
      const here = lineAt(text, cursor);
      const goal = buffer.goal ?? stringWidth(text.slice(here.start, cursor));
      if (motion === 'up' && here.start === 0) return { text, cursor: 0, goal };
      if (motion === 'down' && here.end === text.length) return { text, cursor: text.length, goal };
      const target = motion === 'up' ? lineAt(text, here.start - 1) : lineAt(text, here.end + 1);
      return { text, cursor: offsetAtColumn(text, target.start, target.end, goal), goal };
    }
  }
}

/** The lines to draw, `height` at most, scrolled so the cursor's line is among them; and where the cursor is in them. */
export function visibleLines(
  buffer: TextBuffer,
  height: number,
  top = 0,
): { lines: string[]; top: number; cursorLine: number; cursorColumn: number } {
  const all = buffer.text.split('\n');
  const { line, column } = cursorPosition(buffer);
  let first = top;
  if (line < first) first = line;
  if (line >= first + height) first = line - height + 1;
  first = Math.max(0, Math.min(first, Math.max(0, all.length - height)));
  return { lines: all.slice(first, first + height), top: first, cursorLine: line - first, cursorColumn: column };
}

/** A line cut to `width` columns around `column`, so the cursor stays in view; returns the shown part and the cursor's column in it. */
export function lineWindow(line: string, column: number, width: number): { text: string; column: number } {
  if (stringWidth(line) < width) return { text: line, column };
  // Start far enough right that the cursor fits, on a grapheme boundary.
  const skip = Math.max(0, column - width + 2);
  let offset = 0;
  let skipped = 0;
  for (const { segment } of segmenter.segment(line)) {
    if (skipped >= skip) break;
    skipped += stringWidth(segment);
    offset += segment.length;
  }
  let shown = '';
  for (const { segment } of segmenter.segment(line.slice(offset))) {
    if (stringWidth(shown + segment) > width - 1) break;
    shown += segment;
  }
  return { text: shown, column: column - skipped };
}

/** The line split where the cursor stands: before it, the grapheme under it (a space at the end), after it. */
export function splitAtColumn(line: string, column: number): { before: string; at: string; after: string } {
  let width = 0;
  let offset = 0;
  for (const { segment } of segmenter.segment(line)) {
    if (width >= column)
      return { before: line.slice(0, offset), at: segment, after: line.slice(offset + segment.length) };
    width += stringWidth(segment);
    offset += segment.length;
  }
  return { before: line, at: ' ', after: '' };
}
