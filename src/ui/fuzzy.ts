// Fuzzy matching for the palette and pickers: the query's characters in order, rewarded for
// running together, for starting words and for starting the text.

export interface FuzzyMatch {
  score: number;
  positions: number[];
}

/** undefined when `query` is not a subsequence of `text` (case-insensitive); higher scores are better. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  const q = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const t = text.toLowerCase();
  if (!q) return { score: 0, positions: [] };
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  for (const c of q) {
    const at = t.indexOf(c, from);
    if (at < 0) return undefined;
    const previous = positions[positions.length - 1];
    if (previous !== undefined && at === previous + 1) score += 5;
    if (at === 0 || /[\s_\-.:/@]/.test(t[at - 1] ?? '')) score += 3;
    score -= Math.min(at - from, 10) * 0.1;
    positions.push(at);
    from = at + 1;
  }
  if (t.startsWith(q)) score += 10;
  if (t === q) score += 20;
  score -= t.length * 0.01;
  return { score, positions };
}

/** The items matching `query`, best first; ties keep their original order. */
export function fuzzyFilter<T>(query: string, items: T[], text: (item: T) => string): T[] {
  return items
    .map((item, index) => ({ item, index, match: fuzzyMatch(query, text(item)) }))
    .filter((x): x is { item: T; index: number; match: FuzzyMatch } => x.match !== undefined)
    .sort((a, b) => b.match.score - a.match.score || a.index - b.index)
    .map((x) => x.item);
}
