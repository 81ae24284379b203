// How V8 sizes the heap, per mode: memory follows what is live, not how much was read.
//
// - A list streamed to the end (`--all`): V8's defaults let the young generation grow to 16 MiB
//   semi-spaces and the old one to 4× what survived, so the peak of `dpx list --all` grew with the
//   length of the list (131 → 177 MiB for 10,400 → 104,000 tasks). Pinned at its initial 1 MiB
//   semi-space instead, the young generation was collected about once per page of 100 records, each
//   collection copying the page being written: a third of the export's CPU against a server answering
//   from memory. So it grows to 8 MiB semi-spaces and no further. An export whose pages are read in one
//   pass and written as sent (list-body.ts) makes little garbage on the heap, and the pages' bytes live
//   outside it: with 8 MiB semi-spaces, collections came so seldom that dead pages held the peak at 127
//   MiB at 100,000 tasks (73 at 10,000); with 2 MiB, 94 MiB, at 3 % more CPU.
// - The explorer holds a bounded window and wants short pauses: a young generation of 2 × 2 MiB (V8
//   grew it to 2 × 16 MiB, all resident: peak RSS on the bench's walk 136 → 104-111 MiB, key latency
//   alike), and a heap sized for memory (--optimize-for-size). A list scrolled page after page leaves
//   records that die as its window moves on: sized for throughput, V8 kept about 120 MiB of mostly empty
//   pages at the end of a 100,000-record list at pages of 100 (209 MiB RSS); sized for memory, 43 MiB
//   (112 MiB RSS). It costs CPU where much stays alive: loading the 19,686 tasks of 266 units took 3.3 s
//   of the explorer's CPU, 1.2 s of it collecting, against 2.2 s without the flag.
//
// Not at start-up: a changed flag makes V8 refuse the code cache Node ships for its own modules (the
// cache is keyed by a hash of the flags), so every built-in loaded afterwards was compiled from source
// (`dpx resources -o json`, when its requests still went through fetch and undici: 1,368M → 1,189M
// instructions without the flags, valgrind --tool=callgrind). So the flags are set once a walk has its
// first page, or once the explorer has drawn its first frame (set before it, --optimize-for-size cost
// each start of the explorer about 14 ms of CPU: 288–300 against 308–314 ms to its first frame and out,
// with the pseudo-terminal that drove it, 10 starts each, three rounds).
//
// node:v8 and node:perf_hooks are loaded then too: imported at start-up they cost ≈ 5 ms of every
// command's start, and most commands never size the heap.

const MiB = 1024 * 1024;

/**
 * Emitted on `process` just before the first flag changes: V8 keys compiled code by its flags, so the
 * code cache (code-cache.ts, bundled apart from this module: hence a registered symbol) takes its copy
 * then, or the next start, under the usual flags, would refuse it.
 */
export const BEFORE_V8_FLAGS = Symbol.for('dpx.before-v8-flags');

type V8 = typeof import('node:v8');

/** `recordsAsSent`: the walk reads its pages in one pass and never parses their records. */
export function sizeHeapForStreaming(recordsAsSent: boolean): void {
  void sizeHeap(100, recordsAsSent ? 2 : 8);
}

export function sizeHeapForExplorer(): void {
  void sizeHeap(0, 2, true);
}

async function sizeHeap(growingPercent: number, semiSpaceMiB: number, forSize = false): Promise<void> {
  const [v8, { PerformanceObserver }] = await Promise.all([import('node:v8'), import('node:perf_hooks')]);
  // process's own typings name only Node's events; as the EventEmitter it is, it emits any.
  const events: NodeJS.EventEmitter = process;
  events.emit(BEFORE_V8_FLAGS);
  if (forSize) v8.setFlagsFromString('--optimize-for-size');
  v8.setFlagsFromString(`--heap-growing-percent=${growingPercent}`);
  capYoungGeneration(v8, PerformanceObserver, semiSpaceMiB);
}

/** The new space: two semi-spaces. */
function newSpaceBytes(v8: V8): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Lets the young generation grow, in one step, to semi-spaces of `semiSpaceMiB`, then no further.
 * `--max-semi-space-size` is read only when the heap is set up, so it cannot be set from inside; the
 * growth factor is read at each scavenge, so it is set for one step and back to 1 once the space has grown.
 */
function capYoungGeneration(
  v8: V8,
  PerformanceObserver: typeof import('node:perf_hooks').PerformanceObserver,
  semiSpaceMiB: number,
): void {
  const capBytes = 2 * semiSpaceMiB * MiB;
  const now = newSpaceBytes(v8);
  if (now >= capBytes) {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  v8.setFlagsFromString(`--semi-space-growth-factor=${Math.max(2, Math.ceil(capBytes / Math.max(now, 1)))}`);
  // A scavenge that grows the space is reported after it; the next one comes only after the new,
  // larger half has filled, by which time growth has been stopped.
  const observer = new PerformanceObserver(() => {
    if (newSpaceBytes(v8) < capBytes) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
