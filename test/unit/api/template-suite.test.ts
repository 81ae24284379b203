// The public uritemplate-test suite (test/fixtures/uritemplate-test, Apache-2.0) against dpx's templates:
// every expansion as the suite gives it (one of its answers where it lists several), every malformed
// template refused. A template that expands with no values given is refused by templateProblem already.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DpxError } from '../../../src/api/errors.js';
import { expandWith, templateProblem } from '../../../src/api/hal/template.js';

interface Group {
  level?: number;
  variables: Record<string, unknown>;
  testcases: [string, string | string[] | false][];
}

const FILES = ['spec-examples.json', 'spec-examples-by-section.json', 'extended-tests.json', 'negative-tests.json'];

function groups(file: string): [string, Group][] {
  const text = readFileSync(new URL(`../../fixtures/uritemplate-test/${file}`, import.meta.url), 'utf8');
  return Object.entries(JSON.parse(text) as Record<string, Group>);
}

describe.each(FILES)('uritemplate-test %s', (file) => {
  for (const [name, group] of groups(file)) {
    it(name, () => {
      for (const [template, expected] of group.testcases) {
        if (expected === false) {
          expect(() => expandWith(template, group.variables, 'the test'), template).toThrow(DpxError);
          continue;
        }
        expect(templateProblem(template), template).toBeUndefined();
        const got = expandWith(template, group.variables);
        if (Array.isArray(expected)) expect(expected, template).toContain(got);
        else expect(got, template).toBe(expected);
      }
    });
  }

  it('has the cases the issue counted', () => {
    const counts = groups(file)
      .flatMap(([, group]) => group.testcases)
      .reduce((sum, [, expected]) => sum + (expected === false ? 0 : 1), 0);
    const negative = groups(file).flatMap(([, group]) => group.testcases).length - counts;
    expect({ expansions: counts, malformed: negative }).toEqual(
      {
        'spec-examples.json': { expansions: 64, malformed: 0 },
        'spec-examples-by-section.json': { expansions: 117, malformed: 0 },
        'extended-tests.json': { expansions: 53, malformed: 0 },
        'negative-tests.json': { expansions: 0, malformed: 36 },
      }[file],
    );
  });
});
