// A fan-out against demos that limit each token: one that says so in RateLimit headers, whose limit dpx
// follows without being told; and one that only ever answers 429, where --rate keeps under it and,
// over it, each 429's Retry-After holds the requests back and every count still arrives.
import { afterAll, describe, expect, it } from 'vitest';
import { useDemo, type DemoFixture } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const announcing = useDemo({ rateLimit: 10 });
const quiet = useDemo({ rateLimit: 5, rateLimitHeaders: false });

afterAll(() => {
  expect(tokensShown([...Object.values(announcing.region.tokens), ...Object.values(quiet.region.tokens)])).toEqual([]);
});

interface CountDocument {
  rows: { ou: string; total: number | null; error: string | null }[];
  requests: number;
}

async function count(
  demo: DemoFixture,
  args: string[],
): Promise<{ code: number; stderr: string; document: CountDocument; sent: number }> {
  const before = demo.region.requestCount();
  const env = { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal };
  // Per cell, so that every request beyond discovery is a unit's total or a retry.
  const { code, stdout, stderr } = await dpx(
    ['count', 'tasks', '--ou', 'all', '--plan', 'cells', '--output', 'json', ...args],
    { env },
  );
  return { code, stderr, document: JSON.parse(stdout) as CountDocument, sent: demo.region.requestCount() - before };
}

/** Requests beyond the index, the units and one per unit: each is a retry after a 429. */
const retries = (result: { document: CountDocument }) => result.document.requests - (2 + result.document.rows.length);

// The two tests wait on different demos, so they wait side by side (the file took 15 s one after the other).
describe.concurrent('the rate a fan-out asks at', () => {
  it('follows a limit the server announces: no 429 without --rate, at most 5 % with a ceiling above it', async ({
    expect,
  }) => {
    const followed = await count(announcing, []);
    expect(followed.code, followed.stderr).toBe(0);
    expect(retries(followed)).toBe(0);
    expect(followed.document.rows.every((row) => typeof row.total === 'number')).toBe(true);

    const above = await count(announcing, ['--rate', '100']);
    expect(above.code, above.stderr).toBe(0);
    expect(retries(above) / above.document.requests).toBeLessThanOrEqual(0.05);
    expect(above.document.rows.map((row) => row.total)).toEqual(followed.document.rows.map((row) => row.total));
  });

  it(
    "under a silent server's limit holds (no 429, no retry); " +
      "over it, each 429's Retry-After holds the requests back and every count still arrives",
    async ({ expect }) => {
      // Half the server's limit: the demo answers in this process, and on a busy machine a stall of its
      // event loop lets requests started a second apart arrive in one of its windows (at 4 a second, 3
      // of them were refused with both cores taken).
      const under = await count(quiet, ['--rate', '2.5']);
      expect(under.code, under.stderr).toBe(0);
      expect(retries(under)).toBe(0);
      expect(under.sent).toBe(under.document.requests);
      const totals = under.document.rows.map((row) => row.total);
      expect(totals.every((total) => typeof total === 'number')).toBe(true);

      const over = await count(quiet, ['--rate', '100', '--concurrency', '1']);
      expect(over.code, over.stderr).toBe(0);
      expect(retries(over)).toBeGreaterThan(0);
      expect(over.sent).toBe(over.document.requests);
      expect(over.document.rows.map((row) => row.total)).toEqual(totals);
    },
  );
});
