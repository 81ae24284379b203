// V8's heap sizing for a list streamed to the end (`--all`): memory follows what is live, not how much
// was read. V8's defaults let the young generation grow to 16 MiB semi-spaces and the old one to 4× what
// survived, so the peak of `dpx list --all` grew with the length of the list (131 → 177 MiB for 10,400 →
// 104,000 tasks). Pinned at its initial 1 MiB semi-space instead, the young generation was collected
// about once per page of 100 records, each collection copying the page being written: a third of the
// export's CPU against a server answering from memory. So it grows once, by one step to 8 MiB
// semi-spaces, and then no more. The semi-space size itself cannot be set once V8 runs; the growth
// factor is read at each collection, so it is lowered back to 1 after the first collection that finds
// the space grown.
//
// Not at start-up: a changed flag makes V8 refuse the code cache Node ships for its own modules (the
// cache is keyed by a hash of the flags), so every built-in loaded afterwards, undici for the first
// fetch among them, was compiled from source (`dpx resources -o json`: 1,368M → 1,189M instructions
// without the flags, valgrind --tool=callgrind). By the first page the index has been fetched.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const INITIAL_SEMI_SPACE_MIB = 1;
const SEMI_SPACE_MIB = 8;

export function sizeHeapForStreaming(): void {
  setFlagsFromString('--heap-growing-percent=100');
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_MIB / INITIAL_SEMI_SPACE_MIB}`);
  // The new space is two semi-spaces.
  const grown = 2 * SEMI_SPACE_MIB * 1024 * 1024;
  const watching = new PerformanceObserver(() => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (newSpace === undefined || newSpace.space_size >= grown) {
      setFlagsFromString('--semi-space-growth-factor=1');
      watching.disconnect();
    }
  });
  watching.observe({ entryTypes: ['gc'] });
}
