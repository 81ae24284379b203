// The body editor's model: a cursor on grapheme boundaries, moved and edited as a terminal editor does,
// and the keys that reach it (Delete told from Backspace, keys typed ahead).
import { describe, expect, it } from 'vitest';
import {
  createBuffer,
  cursorPosition,
  deleteBackward,
  deleteForward,
  insert,
  lineWindow,
  move,
  splitAtColumn,
  visibleLines,
} from '../../../src/ui/text-buffer.js';
import { toKeys } from '../../../src/ui/keys.js';

describe('the text buffer', () => {
  it('moves over a wide character, an emoji and a combining accent as one', () => {
    let buffer = createBuffer('a日👍🏽é');
    buffer = move(buffer, 'left');
    expect(buffer.text.slice(buffer.cursor)).toBe('é');
    buffer = move(buffer, 'left');
    expect(buffer.text.slice(buffer.cursor)).toBe('👍🏽é');
    buffer = deleteBackward(buffer);
    expect(buffer.text).toBe('a👍🏽é');
    expect(cursorPosition(buffer)).toEqual({ line: 0, column: 1 });
    buffer = deleteForward(buffer);
    expect(buffer.text).toBe('aé');
  });

  it('keeps the display column going up and down, counting wide characters as two', () => {
    let buffer = createBuffer('日本語\nab\nabcdef', 0);
    buffer = move(move(buffer, 'right'), 'right');
    expect(cursorPosition(buffer)).toEqual({ line: 0, column: 4 });
    buffer = move(buffer, 'down');
    expect(cursorPosition(buffer)).toEqual({ line: 1, column: 2 });
    buffer = move(buffer, 'down');
    expect(cursorPosition(buffer)).toEqual({ line: 2, column: 4 });
    buffer = move(move(buffer, 'up'), 'up');
    expect(cursorPosition(buffer)).toEqual({ line: 0, column: 4 });
  });

  it('Home and End stay on the line; a paste of several lines goes in whole with its line ends made \\n', () => {
    let buffer = createBuffer('{\n  "a": 1\n}', 4);
    buffer = move(buffer, 'end');
    expect(buffer.text.slice(0, buffer.cursor)).toBe('{\n  "a": 1');
    buffer = insert(buffer, ',\r\n  "b": 2');
    expect(buffer.text).toBe('{\n  "a": 1,\n  "b": 2\n}');
    expect(cursorPosition(buffer)).toEqual({ line: 2, column: 8 });
    buffer = move(buffer, 'home');
    expect(cursorPosition(buffer)).toEqual({ line: 2, column: 0 });
  });

  it('shows the lines around the cursor, cut around its column, with the character under it', () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const view = visibleLines(createBuffer(text), 5, 0);
    expect(view.lines[view.cursorLine]).toBe('line 19');
    expect(view.top).toBe(15);
    expect(lineWindow('0123456789', 9, 5)).toEqual({ text: '6789', column: 3 });
    expect(splitAtColumn('a日b', 1)).toEqual({ before: 'a', at: '日', after: 'b' });
    expect(splitAtColumn('ab', 2)).toEqual({ before: 'ab', at: ' ', after: '' });
  });
});

describe('keys for the editor', () => {
  it('tells the Delete key from Backspace by the bytes read; ink names both delete', () => {
    expect(toKeys('', { delete: true }, '\x1b[3~')[0]!.name).toBe('delete');
    expect(toKeys('', { delete: true }, '\x7f')[0]!.name).toBe('backspace');
    expect(toKeys('', { delete: true })[0]!.name).toBe('backspace');
  });

  it('keys typed ahead in one read: control codes are ctrl-keys, and no other control character becomes text', () => {
    const keys = toKeys('\r\x15ab\x00\x1bc', {});
    expect(keys.map((key) => (key.ctrl ? `ctrl-${key.char}` : key.name === 'char' ? key.char : key.name))).toEqual([
      'return',
      'ctrl-u',
      'a',
      'b',
      'escape',
      'c',
    ]);
  });
});
