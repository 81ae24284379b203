// Build-time wrappers around two hot functions of ink's renderer, which it calls for every line of
// every frame. Both give the wrapped function's own answer; they only avoid asking it again.
// Bundled in place of `string-width` (each installed version) and `@alcalzone/ansi-tokenize`.

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
  '@alcalzone/ansi-tokenize': ['tokenize', 'styledCharsFromTokens', 'styledCharsToString', 'ansiCodesToString', 'diffAnsiCodes'],
};

/** The names of `WRAPPED[name]` that `module` lacks or does not export as functions. */
export function missingExports(name, module) {
  return WRAPPED[name].filter((key) => typeof module[key] !== 'function');
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
    if (typeof input !== 'string' || options?.countAnsiEscapeCodes || options?.ambiguousIsNarrow === false) return stringWidth(input, options);
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

const MEMO_MAX = 8192;

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

/** Whether two reduced style lists are the same codes in the same order: no change between them. */
function sameStyles(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].code !== b[i].code) return false;
  return true;
}

/**
 * ink tokenises each line of each frame afresh (its caches live for one frame); most lines are the
 * same from one frame to the next. The results are only read, never changed, so they can be shared.
 * Turning the frame's cells back into text diffs the styles of every pair of neighbouring cells;
 * neighbours with the same styles (nearly all of them) need no diff.
 */
export function memoisedTokenizer({ tokenize, styledCharsFromTokens, ansiCodesToString, diffAnsiCodes }) {
  const styled = new WeakMap();
  return {
    tokenize: byText(tokenize),
    styledCharsToString(chars) {
      let text = '';
      for (let i = 0; i < chars.length; i++) {
        const char = chars[i];
        if (i === 0) text += ansiCodesToString(char.styles);
        else if (!sameStyles(chars[i - 1].styles, char.styles)) text += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        text += char.value;
        if (i === chars.length - 1 && char.styles.length) text += ansiCodesToString(diffAnsiCodes(char.styles, []));
      }
      return text;
    },
    styledCharsFromTokens(tokens) {
      let chars = styled.get(tokens);
      if (chars === undefined) {
        chars = styledCharsFromTokens(tokens);
        styled.set(tokens, chars);
      }
      return chars;
    },
  };
}
