import { startFile } from './helpers/per-file.js';

// React is told it runs in a test only while a test step runs inside act() (test/ui/step.ts). Between
// steps the explorer updates on its own, as it does in a terminal, when a response arrives or its
// clock ticks; with the flag left on, React would warn about each such update.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

// Helpers' state of the previous file in this process (test/helpers/per-file.ts) made anew for this one.
startFile();
