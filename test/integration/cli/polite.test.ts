// A fan-out against a demo that limits each token to 5 requests a second: under --rate it never draws a
// 429; over it, the 429s' Retry-After holds the requests back and every count still arrives.
import { afterAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ rateLimit: 5 });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

interface CountDocument {
  rows: { ou: string; total: number | null; error: string | null }[];
  requests: number;
}

async function count(args: string[]): Promise<{ code: number; stderr: string; document: CountDocument; sent: number }> {
  const before = demo.region.requestCount();
  const { code, stdout, stderr } = await dpx(['count', 'tasks', '--ou', 'all', '--output', 'json', ...args], { env: env() });
  return { code, stderr, document: JSON.parse(stdout) as CountDocument, sent: demo.region.requestCount() - before };
}

describe('the rate ceiling in a fan-out', () => {
  it('under the server\'s limit holds (no 429, no retry); over it, each 429\'s Retry-After holds the requests back and every count still arrives', async () => {
    const under = await count(['--rate', '4']);
    expect(under.code, under.stderr).toBe(0);
    // Exactly the index, the units and one request per unit: nothing was retried.
    expect(under.document.requests).toBe(2 + under.document.rows.length);
    expect(under.sent).toBe(under.document.requests);
    const totals = under.document.rows.map((row) => row.total);
    expect(totals.every((total) => typeof total === 'number')).toBe(true);

    const over = await count(['--rate', '100', '--concurrency', '1']);
    expect(over.code, over.stderr).toBe(0);
    expect(over.document.requests).toBeGreaterThan(2 + over.document.rows.length);
    expect(over.sent).toBe(over.document.requests);
    expect(over.document.rows.map((row) => row.total)).toEqual(totals);
  });
});
