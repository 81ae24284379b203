// What `:count …` in the palette asks for, read from the words typed as `dpx count`'s options read them:
// `by FIELD`, `plan cells|scan`, `since WHEN`, `until WHEN`, `depth N`, `sort [-]COLUMN`, `nonzero`, and
// `where FILTER` last (the rest of the line is the filter). The entry's label keeps them in the order typed.
import type { CountParams } from '../count/state.js';

export type CountWords = Omit<CountParams, 'resource'> & {
  /** The words after the resource, in the order typed; `field` where no `by` was typed comes first. */
  label(field?: string): string;
};

const word = (text: string, name: string) => new RegExp(`\\b${name}\\s+(\\S+)`, 'i').exec(text)?.[1];

export function countWords(query: string): CountWords {
  const where = /\bwhere\s+(.*)$/i.exec(query)?.[1]?.trim() || undefined;
  const asked = where === undefined ? query : query.slice(0, query.search(/\bwhere\b/i));
  const by = word(asked, 'by');
  const plan = word(asked, 'plan')?.toLowerCase();
  const depth = word(asked, 'depth');
  const words: Omit<CountWords, 'label'> = {
    ...(by ? { by } : {}),
    ...(where ? { filter: where } : {}),
    ...(plan === 'cells' || plan === 'scan' ? { forcedPlan: plan } : {}),
    ...(word(asked, 'since') ? { since: word(asked, 'since')! } : {}),
    ...(word(asked, 'until') ? { until: word(asked, 'until')! } : {}),
    ...(depth && /^\d+$/.test(depth) ? { depth: Number(depth) } : {}),
    ...(word(asked, 'sort') ? { sort: word(asked, 'sort')! } : {}),
    ...(/\bnonzero\b/i.test(asked) ? { nonzero: true } : {}),
  };
  // In the order typed, so that what was typed matches the entry's label.
  const at = (name: string) => asked.search(new RegExp(`\\b${name}\\b`, 'i'));
  const label = (field?: string) =>
    (
      [
        [by ? at('by') : -1, field && `by ${field}`],
        [at('plan'), words.forcedPlan && `plan ${words.forcedPlan}`],
        [at('since'), words.since && `since ${words.since}`],
        [at('until'), words.until && `until ${words.until}`],
        [at('depth'), words.depth !== undefined && `depth ${words.depth}`],
        [at('sort'), words.sort && `sort ${words.sort}`],
        [at('nonzero'), words.nonzero && 'nonzero'],
        [asked.length, where && `where ${where}`],
      ] as const
    )
      .filter(([, text]) => Boolean(text))
      .sort(([a], [b]) => a - b)
      .map(([, text]) => text)
      .join(' ');
  return { ...words, label };
}
