// V8's heap sizing for a list streamed to the end (`--all`): memory follows what is live, not how much
// was read. `dpx list --all` streams 100,000 records with ~15 MiB live, yet V8's defaults let the young
// generation grow to 48 MiB and the old one to 4× what survived, so the peak grew with the length of the
// list (131 → 177 MiB for 10,400 → 104,000 tasks; 106 → 109 MiB with these; 10,400 tasks take ~3 %
// longer). Both flags are read at each collection, so setting them as the walk starts takes effect.
//
// Not at start-up: a changed flag makes V8 refuse the code cache Node ships for its own modules (the
// cache is keyed by a hash of the flags), so every built-in loaded afterwards, undici for the first
// fetch among them, was compiled from source (`dpx resources -o json`: 1,368M → 1,189M instructions
// without the flags, valgrind --tool=callgrind). By the first page the index has been fetched.
import { setFlagsFromString } from 'node:v8';

export function sizeHeapForStreaming(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=100');
}
