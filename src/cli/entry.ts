import { setFlagsFromString } from 'node:v8';

// Memory follows what is live, not how much was read: `dpx list --all` streams 100,000 records with
// ~15 MiB live, yet V8's defaults let the young generation grow to 48 MiB and the old one to 4× what
// survived, so the peak grew with the length of the list (131 → 177 MiB for 10,400 → 104,000 tasks;
// 106 → 109 MiB with these; 10,400 tasks take ~3 % longer). Both flags are read at each collection, so setting
// them here, before anything is allocated in earnest, takes effect (the semi-space size would not).
setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--heap-growing-percent=100');
// ink crashes when bundled with DEV set (it tries to reach react-devtools); drop it before anything loads.
delete process.env['DEV'];
await import('./main.js');
