// The explorer's heap: its young generation held to a few MiB, and short pauses. V8 lets it grow to 2 × 16 MiB, all of it resident
// once used, for a program whose frames leave little garbage: 32 of the explorer's 136 MiB peak on the
// bench's walk. `--max-semi-space-size` is read only when the heap is set up, so it cannot be set from
// inside; the growth factor is read at each scavenge, so growth is allowed until the cap and then stopped.
import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

const MiB = 1024 * 1024;

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Lets the young generation grow (doubling) until its two halves hold `semiSpaceMiB` each, then no further. */
function capYoungGeneration(semiSpaceMiB: number): void {
  const capBytes = 2 * semiSpaceMiB * MiB;
  if (newSpaceBytes() >= capBytes) {
    setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  setFlagsFromString('--semi-space-growth-factor=2');
  // A scavenge that grows the space is reported after it; the next one comes only after the new,
  // larger half has filled, by which time growth has been stopped.
  const observer = new PerformanceObserver(() => {
    if (newSpaceBytes() < capBytes) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/**
 * The explorer holds a bounded window and wants short pauses, from a young generation of 2 × 2 MiB (peak
 * RSS on the bench's walk 136 → 104-111 MiB, key latency alike). Called once the first frame is drawn: a
 * changed flag makes V8 compile every built-in loaded afterwards from source, and by then fetch and the
 * terminal's streams have loaded (see cli/heap.ts).
 */
export function sizeHeapForExplorer(): void {
  capYoungGeneration(2);
  setFlagsFromString('--heap-growing-percent=0');
}
