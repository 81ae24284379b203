// What a string must look like, said with an example instead of the schema's regular expression: a
// person fixing a body reads "a UUID, e.g. 3f2504e0-…", not `^[0-9a-fA-F]{8}-…$`.

const UUID_EXAMPLE = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

/** Well-known shapes, recognised by what the pattern accepts rather than by its exact text. */
const KNOWN: { name: string; example: string }[] = [
  { name: 'a UUID', example: UUID_EXAMPLE },
  { name: 'an email address', example: 'someone@example.com' },
  { name: 'a date', example: '2024-05-01' },
  { name: 'a date and time', example: '2024-05-01T10:20:30Z' },
];

/** A value the pattern accepts, with a name for its shape when it is a well-known one; undefined when none is found. */
export function patternExample(pattern: string): { name?: string; example: string } | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  // A shape is named only when the pattern takes its example and none of the others' (`.*` names none).
  const taken = KNOWN.filter((known) => regex.test(known.example));
  if (taken.length === 1) return { name: taken[0]!.name, example: taken[0]!.example };
  const sampled = sample(pattern);
  return sampled !== undefined && regex.test(sampled) ? { example: sampled } : undefined;
}

/** `must be a UUID, e.g. 3f25…`, or `must look like e.g. AB-12`; the schema's own words when no example is found. */
export function patternMessage(pattern: string): string {
  const found = patternExample(pattern);
  if (!found) return 'does not have the expected form';
  return found.name
    ? `must be ${found.name}, e.g. ${found.example}`
    : `does not have the expected form, e.g. ${found.example}`;
}

/**
 * A string for a simple pattern: literals, escapes (\d \w \s), character classes, groups with
 * alternatives (the first is taken) and the quantifiers ? * + {n} {n,m} (their least count, at least one
 * for + ). Anything else gives up: a wrong example is worse than none.
 */
function sample(pattern: string): string | undefined {
  let i = 0;
  const source = pattern.replace(/^\^/, '').replace(/\$$/, '');
  const atom = (): string | undefined => {
    const c = source[i];
    if (c === undefined) return undefined;
    if (c === '\\') {
      const next = source[i + 1];
      i += 2;
      if (next === 'd') return '1';
      if (next === 'w') return 'a';
      if (next === 's') return ' ';
      if (next === undefined || /[A-Za-z]/.test(next)) return undefined;
      return next;
    }
    if (c === '[') {
      const end = source.indexOf(']', i + 2);
      if (end === -1) return undefined;
      const body = source.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('^')) {
        const accepts = new RegExp(`[${body}]`, 'u');
        return ['a', 'x', '1', '-'].find((candidate) => accepts.test(candidate));
      }
      const first = body.startsWith('\\') ? body.slice(0, 2) : body[0];
      if (first === '\\d') return '1';
      if (first === '\\w') return 'a';
      return first !== undefined && !first.startsWith('\\') ? first : undefined;
    }
    if (c === '(') {
      let depth = 0;
      let end = i;
      for (; end < source.length; end++) {
        if (source[end] === '\\') end++;
        else if (source[end] === '(') depth++;
        else if (source[end] === ')' && --depth === 0) break;
      }
      const inner = source.slice(i + 1, end).replace(/^\?:/, '');
      i = end + 1;
      const firstAlternative = inner.split('|')[0] ?? '';
      return sample(firstAlternative);
    }
    if ('.'.includes(c)) {
      i++;
      return 'x';
    }
    if ('|)*+?{}^$'.includes(c)) return undefined;
    i++;
    return c;
  };
  let out = '';
  while (i < source.length) {
    const piece = atom();
    if (piece === undefined) return undefined;
    const q = source[i];
    let count = 1;
    if (q === '?' || q === '*') {
      count = 0;
      i++;
    } else if (q === '+') {
      i++;
    } else if (q === '{') {
      const match = /^\{(\d+)(,\d*)?\}/.exec(source.slice(i));
      if (!match) return undefined;
      count = Math.max(Number(match[1]), 0);
      i += match[0].length;
    }
    if (source[i] === '?') i++;
    out += piece.repeat(count);
  }
  return out;
}
