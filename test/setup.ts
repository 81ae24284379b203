import * as React from 'react';
import { afterAll } from 'vitest';
import { startFile } from './helpers/per-file.js';
import { removeTemporaryFolders, temporaryFolder } from './helpers/temporary.js';
import './helpers/shipped-renderer.js';

// React is told it runs in a test only while a test step runs inside act() (test/ui/step.ts). Between
// steps the explorer updates on its own, as it does in a terminal, when a response arrives or its
// clock ticks; with the flag left on, React would warn about each such update.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

// Helpers' state of the previous file in this process (test/helpers/per-file.ts) made anew for this one.
startFile();
// Registered before the file's own hooks, so run after them: a file closes what it wrote before its folders go.
afterAll(removeTemporaryFolders);
// dpx's cache (page sizes, filters, names, compiled code) in a folder of this file's own, for dpx run in this
// process and for those it starts, where a test names none: never the user's, never another file's. A page
// size learned by an earlier run on a port used again would have changed what a test sees.
process.env['XDG_CACHE_HOME'] = temporaryFolder('dpx-test-cache-');

// React's development build (the one tests need: act() exists only there) records, for each element it
// creates, an Error with the stack of where it was created, so that a warning can name its owner. It keeps
// doing so until 10,000 were made within a second; the count below says that limit is always reached, so
// elements share one stack. No test reads those stacks, and six of the heaviest UI test files spent an eighth of their CPU time
// making them.
const internals = (React as unknown as Record<string, Record<string, unknown>>)[
  '__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE'
];
if (internals && Object.getOwnPropertyDescriptor(internals, 'recentlyCreatedOwnerStacks')?.get === undefined) {
  Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { get: () => 10_000, set: () => undefined });
}
