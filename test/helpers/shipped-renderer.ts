// The UI tests draw their frames with the renderer the bundle ships. scripts/build.mjs replaces ink's
// Output.get, which rebuilds every row of the screen on every frame, by rowMemoisedGet, which rebuilds only
// the rows that changed (scripts/bundle-shims.mjs). With ink's own, the UI tests checked a renderer the
// explorer does not run, and six of the heaviest UI test files took a quarter more CPU time. Imported by
// test/setup.ts: a fork evaluates it once, so ink's own get is taken before it is replaced.
import * as tokenizer from '@alcalzone/ansi-tokenize';
import Output from '../../node_modules/ink/build/output.js';
import sliceAnsi from 'slice-ansi';
// @ts-expect-error: a plain ES module of the build, without type declarations
import { memoisedTokenizer, rowMemoisedGet } from '../../scripts/bundle-shims.mjs';

/** ink's own Output.get, as installed: what the bundle's get is checked against (test/unit/build/bundle-shims.test.ts). */
export const inksOwnGet = Output.prototype.get;

Output.prototype.get = rowMemoisedGet({
  sliceAnsi,
  styledCharsToString: memoisedTokenizer(tokenizer).styledCharsToString,
});
