// The order files start in. With durations from an earlier run in vitest's cache, vitest's own order
// (failed first, then longest first) is kept. A fresh checkout — every CI run — has none, and vitest
// then starts the largest files first, which are not the slowest: a pseudo-terminal walk or a server
// holding answers back could start last and leave the other forks idle while it runs (103 s against
// 77 s for the same suite). So without a cache, files go longest first by test/durations.json, the
// durations of a full run (`node scripts/test-durations.mjs` writes it anew); a file it does not know
// yet is guessed by its folder.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const known = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
/** Seconds a new file of each folder is guessed to take: pseudo-terminal walks wait longest. */
const GUESSES: [string, number][] = [
  ['test/e2e/', 10],
  ['test/robustness/', 5],
  ['test/ui/', 3],
  ['test/integration/', 2],
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (file: TestSpecification) => relative(this.ctx.config.root, file.moduleId);
    if (files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined))
      return super.sort(files);
    const seconds = (file: TestSpecification) =>
      known[path(file)] ?? GUESSES.find(([folder]) => path(file).startsWith(folder))?.[1] ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
