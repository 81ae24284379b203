// "did you mean …": the candidates closest to a word typed wrong, by edit distance (fastest-levenshtein),
// for unknown commands, options, resources, operation ids, profiles and fields. A candidate is offered
// when it is within a third of the word's length (at least 2 edits, a swap of two letters being 2; 1 for a
// word of two letters; at most 3), or starts with what was typed; the closest come first, at most three.
import { distance } from 'fastest-levenshtein';

const MAX_SUGGESTIONS = 3;

export function closest(word: string, candidates: Iterable<string>): string[] {
  const typed = word.toLowerCase();
  const limit = typed.length <= 2 ? 1 : Math.min(3, Math.max(2, Math.floor(typed.length / 3)));
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    const edits = distance(typed, lower);
    if (edits <= limit || (typed.length >= 2 && lower.startsWith(typed))) scored.push({ candidate, score: edits });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ candidate }) => candidate);
}

/**
 * A hint for a word that names nothing: `did you mean list?` (or `tasks, tags or tapes?`) when something
 * is close, then `known: …` naming every candidate (all of them, when `everything` is given).
 */
export function didYouMean(word: string, candidates: readonly string[], everything?: string): string {
  const found = closest(word, candidates);
  const guess =
    found.length === 0
      ? ''
      : `did you mean ${found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} or ${found.at(-1)}`}?`;
  const known = everything ?? (candidates.length === 0 ? '' : candidates.join(', '));
  return [guess, known].filter(Boolean).join(' ');
}
