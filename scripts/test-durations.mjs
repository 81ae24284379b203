// Writes test/durations.json from vitest's cache of the last run: each file's duration in seconds, which
// test/sequencer.ts orders a fresh checkout's files by (CI has no cache). Run after a full `npm test`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const cache = join(root, 'node_modules', '.vite', 'vitest');
const [folder] = readdirSync(cache);
const { results } = JSON.parse(readFileSync(join(cache, folder, 'results.json'), 'utf8'));
const durations = Object.fromEntries(
  results
    .map(([key, { duration }]) => [key.slice(key.indexOf(':') + 1), Math.round(duration / 100) / 10])
    // The cache keeps files that were since removed or renamed.
    .filter(([file]) => existsSync(join(root, file)))
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(durations, null, 1)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
