// Build-time wrappers around hot functions of ink's renderer, which it calls for every line of every
// frame. Each gives the wrapped function's own answer; they only avoid asking it again. Bundled in
// place of `string-width` (each installed version) and `@alcalzone/ansi-tokenize`, and as ink's
// `Output.prototype.get`.

/**
 * Code points that are a grapheme of their own and whose width does not depend on their neighbours:
 * printable ASCII, Latin-1 and Latin Extended, general punctuation (without the zero-width and bidi
 * controls), symbols, arrows, box drawing, blocks, shapes, dingbats. A string of only these has the
 * width of the sum of its code points; anything else (combining marks, joiners, variation selectors,
 * astral emoji, CJK, Hangul jamo) goes to string-width whole.
 */
/** What each shim wraps, by module: the build checks every name is a function of the real module. */
export const WRAPPED = {
  'string-width': ['default'],
  '@alcalzone/ansi-tokenize': [
    'tokenize',
    'reduceAnsiCodesIncremental',
    'styledCharsToString',
    'ansiCodesToString',
    'diffAnsiCodes',
  ],
};

/** The names of `WRAPPED[name]` that `module` lacks or does not export as functions. */
export function missingExports(name, module) {
  return WRAPPED[name].filter((key) => typeof module[key] !== 'function');
}

/**
 * Whether a string-width of this version measures a lone code point by its East Asian width (soft hyphen 0),
 * so that fastStringWidth may ask get-east-asian-width instead: version 8 does, version 7 does not
 * (test/unit/build/bundle-shims.test.ts checks every code point of the shim's ranges).
 */
export function measuresByEastAsianWidth(version) {
  return Number(version.split('.')[0]) >= 8;
}

/**
 * The source of the module that stands in for a string-width: its default export wrapped by
 * fastStringWidth. The specifiers are of the real module, of this file and, where the real one measures
 * by East Asian width, of the get-east-asian-width it imports itself. Used by the build and by the test
 * forks' module hooks (test/render-shims/hooks.mjs), so that both load the same wrapper.
 */
export function widthWrapperSource({ real, shims, eastAsian }) {
  return [
    `import real from ${JSON.stringify(real)};`,
    `import { fastStringWidth } from ${JSON.stringify(shims)};`,
    ...(eastAsian
      ? [
          `import { eastAsianWidth } from ${JSON.stringify(eastAsian)};`,
          'export default fastStringWidth(real, eastAsianWidth);',
        ]
      : ['export default fastStringWidth(real);']),
    '',
  ].join('\n');
}

/** The source of the module that stands in for @alcalzone/ansi-tokenize: the real one, its hot functions memoised. */
export function tokenizerWrapperSource({ real, shims }) {
  return [
    `import * as real from ${JSON.stringify(real)};`,
    `import { memoisedTokenizer } from ${JSON.stringify(shims)};`,
    `export * from ${JSON.stringify(real)};`,
    'export const { tokenize, styledCharsFromTokens, styledCharsToString } = memoisedTokenizer(real);',
    '',
  ].join('\n');
}

const INDEPENDENT = /^[\x20-\x7e\xa0-\u02ff\u2010-\u2027\u2030-\u205f\u2070-\u20cf\u2100-\u2bff]*$/;
const SGR = /\x1b\[[0-9;]*m/g;

const SOFT_HYPHEN = 0xad;

/**
 * `stringWidth` with the same answers, fast for text made of independent code points. With
 * `eastAsianWidth` (for a string-width that measures such a code point by it), a code point is measured
 * without asking string-width, whose first answer about one builds its emoji pattern.
 */
export function fastStringWidth(stringWidth, eastAsianWidth) {
  const widths = new Map();
  const widthOf = (codePoint) => {
    let width = widths.get(codePoint);
    if (width === undefined) {
      if (eastAsianWidth) width = codePoint === SOFT_HYPHEN ? 0 : eastAsianWidth(codePoint);
      else width = stringWidth(String.fromCharCode(codePoint));
      widths.set(codePoint, width);
    }
    return width;
  };
  return function width(input, options) {
    if (typeof input !== 'string' || options?.countAnsiEscapeCodes || options?.ambiguousIsNarrow === false)
      return stringWidth(input, options);
    const text = input.includes('\x1b') ? input.replace(SGR, '') : input;
    if (!INDEPENDENT.test(text)) return stringWidth(input, options);
    let total = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      total += code < 0x7f ? 1 : widthOf(code);
    }
    return total;
  };
}

/**
 * Lines remembered: some fifty screens. Each costs two arrays of pointers (its characters are shared),
 * so the memo holds at most a few MiB, however long the session.
 */
const MEMO_MAX = 2048;
/** Distinct characters (and styles) shared at a time; beyond it, those handed out stay valid, unshared. */
const SHARED_MAX = 16384;

/** Memoises a one-argument function by its string argument, forgetting everything when full. */
function byText(fn) {
  const memo = new Map();
  return (text) => {
    let value = memo.get(text);
    if (value === undefined) {
      value = fn(text);
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(text, value);
    }
    return value;
  };
}

/** One object per key, made on first use; read-only objects only. */
function sharedBy() {
  const table = new Map();
  return (key, make) => {
    let value = table.get(key);
    if (value === undefined) {
      if (table.size >= SHARED_MAX) table.clear();
      value = make();
      table.set(key, value);
    }
    return value;
  };
}

/** Whether two reduced style lists are the same codes in the same order: no change between them. */
function sameStyles(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].code !== b[i].code) return false;
  return true;
}

/**
 * The characters of a tokenised line, each with the styles in force: the original's answer, built with
 * an object literal, and one object for each distinct character in each distinct style. The original
 * spreads each token into a new object (`{ ...token, styles }`), and on Node 20 each such object gets a
 * hidden class of its own: 59,000 of them, 12 MiB of the explorer's 38 MiB of live heap after the
 * bench's 200 key presses. A reduced style list is never changed (each reduction makes a new one).
 */
function charsWithStyles(tokens, reduceAnsiCodesIncremental, sharedStyles, sharedChar) {
  let codes = [];
  let key = '';
  const chars = [];
  for (const token of tokens) {
    if (token.type === 'ansi') {
      const reduced = reduceAnsiCodesIncremental(codes, [token]);
      key = reduced.map((code) => code.code).join('');
      codes = sharedStyles(key, () => reduced);
    } else if (token.type === 'char') {
      const { value, fullWidth } = token;
      const styles = codes;
      chars.push(sharedChar(`${key}\0${value}`, () => ({ type: 'char', value, fullWidth, styles })));
    }
  }
  return chars;
}

/**
 * ink tokenises each line of each frame afresh (its caches live for one frame); most lines are the
 * same from one frame to the next. The results are only read, never changed, so they can be shared.
 * Turning the frame's cells back into text diffs the styles of every pair of neighbouring cells;
 * neighbours with the same styles (nearly all of them) need no diff.
 */
export function memoisedTokenizer({ tokenize, reduceAnsiCodesIncremental, ansiCodesToString, diffAnsiCodes }) {
  const styled = new WeakMap();
  const sharedToken = sharedBy();
  const sharedStyles = sharedBy();
  const sharedChar = sharedBy();
  // A character token's width follows from its text, so tokens of the same text are one object.
  const tokenizeShared = (text) =>
    tokenize(text).map((token) => (token.type === 'char' ? sharedToken(token.value, () => token) : token));
  return {
    tokenize: byText(tokenizeShared),
    styledCharsToString(chars) {
      let text = '';
      for (let i = 0; i < chars.length; i++) {
        const char = chars[i];
        if (i === 0) text += ansiCodesToString(char.styles);
        else if (!sameStyles(chars[i - 1].styles, char.styles))
          text += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        text += char.value;
        if (i === chars.length - 1 && char.styles.length) text += ansiCodesToString(diffAnsiCodes(char.styles, []));
      }
      return text;
    },
    styledCharsFromTokens(tokens) {
      let chars = styled.get(tokens);
      if (chars === undefined) {
        chars = charsWithStyles(tokens, reduceAnsiCodesIncremental, sharedStyles, sharedChar);
        styled.set(tokens, chars);
      }
      return chars;
    },
  };
}

/** Rows of output remembered by what was written on them: some fifty screens, as for lines. */
const ROWS_MAX = 2048;
const BLANK_CELL = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });

/**
 * ink's `Output.prototype.get`, with the same answer: ink fills a grid of cells the size of the screen
 * on every frame, puts each line written into it character by character, then turns each row back into
 * text. A row's text follows only from the width and what was written on it, in order (where, and the
 * line after its transformers), and a key press changes two or three rows of forty: a row is built as
 * ink builds it only when that differs from every row remembered. Clipping is ink's own, line for line.
 */
export function rowMemoisedGet({ sliceAnsi, styledCharsToString }) {
  const rows = new Map();
  function buildRow(output, width, writes) {
    const row = new Array(width).fill(BLANK_CELL);
    for (const [x, line] of writes) {
      let offsetX = x;
      for (const character of output.caches.getStyledChars(line)) {
        row[offsetX] = character;
        const characterWidth = Math.max(1, output.caches.getStringWidth(character.value));
        // A wide character's following cells are emptied, as ink does, so no stray spaces remain.
        for (let index = 1; index < characterWidth; index++)
          row[offsetX + index] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        offsetX += characterWidth;
      }
    }
    return styledCharsToString(row.filter((item) => item !== undefined)).trimEnd();
  }
  return function get() {
    const writesOn = [];
    for (let y = 0; y < this.height; y++) writesOn.push([]);
    const clips = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      if (operation.type === 'unclip') clips.pop();
      if (operation.type !== 'write') continue;
      const { text, transformers } = operation;
      let { x, y } = operation;
      let lines = text.split('\n');
      const clip = clips.at(-1);
      if (clip) {
        const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
        const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
        if (clipHorizontally) {
          const width = this.caches.getWidestLine(text);
          if (x + width < clip.x1 || x > clip.x2) continue;
        }
        if (clipVertically && (y + lines.length < clip.y1 || y > clip.y2)) continue;
        if (clipHorizontally) {
          lines = lines.map((line) => {
            const from = x < clip.x1 ? clip.x1 - x : 0;
            const width = this.caches.getStringWidth(line);
            const to = x + width > clip.x2 ? clip.x2 - x : width;
            return sliceAnsi(line, from, to);
          });
          if (x < clip.x1) x = clip.x1;
        }
        if (clipVertically) {
          const from = y < clip.y1 ? clip.y1 - y : 0;
          const to = y + lines.length > clip.y2 ? clip.y2 - y : lines.length;
          lines = lines.slice(from, to);
          if (y < clip.y1) y = clip.y1;
        }
      }
      let offsetY = 0;
      for (let index = 0; index < lines.length; index++) {
        const writes = writesOn[y + offsetY];
        // ink skips a line outside its rows without moving on to the next row.
        if (!writes) continue;
        let line = lines[index];
        for (const transformer of transformers) line = transformer(line, index);
        writes.push([x, line]);
        offsetY++;
      }
    }
    const texts = writesOn.map((writes) => {
      if (writes.length === 0) return '';
      const key = `${this.width}${writes.map(([x, line]) => `\0${x}\0${line.length}\0${line}`).join('')}`;
      let text = rows.get(key);
      if (text === undefined) {
        text = buildRow(this, this.width, writes);
        if (rows.size >= ROWS_MAX) rows.clear();
        rows.set(key, text);
      }
      return text;
    });
    return { output: texts.join('\n'), height: writesOn.length };
  };
}
