// How a case's times and counts read in its summary and its report.

/** `2026-11-25 16:57:18Z`: to the second, in UTC, as recorded. */
export function when(iso: string): string {
  return iso === '' ? '' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
