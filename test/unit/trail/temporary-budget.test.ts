// The explorer's temporary trail (for `T`) holds the bodies of its newest exchanges only, within a budget, so a long
// scroll neither keeps nor redacts and encodes every page; older exchanges keep their request and status.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Exchange } from '../../../src/api/exchange.js';
import { HarTrail, TRUNCATED_COMMENT } from '../../../src/api/case/trail.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const TOKEN = 'tok-budget-0123456789';
const BUDGET = 20_000;
const PAGE = 3_000;

let dir: string;
beforeEach(async () => {
  dir = temporaryFolder('dpx-budget-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function page(n: number): Exchange {
  const body = JSON.stringify({ _embedded: { tasks: [{ id: `t${n}`, note: `${TOKEN} ${'x'.repeat(PAGE)}` }] } });
  return {
    startedAt: new Date('2025-01-02T03:04:05.000Z'),
    durationMs: 2,
    request: {
      method: 'GET',
      url: `https://dp.example/api/tasks?page=${n}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    },
    response: {
      status: 200,
      statusText: 'OK',
      headers: {},
      body,
      bodyTruncated: false,
      contentType: 'application/json',
    },
  };
}

interface Entry {
  request: { url: string };
  response: { status: number; content: { text?: string; comment?: string } };
}

it('holds at most its budget of bodies over many pages, and T still has the newest exchanges whole', async () => {
  const trail = await HarTrail.temporary(() => [TOKEN], BUDGET);
  const pages = 300;
  for (let n = 1; n <= pages; n += 1) {
    trail.record(page(n));
    expect(trail.heldBodyLength).toBeLessThanOrEqual(BUDGET);
  }
  expect(trail.entryCount).toBe(pages);
  const kept = Math.floor(BUDGET / page(1).response!.body.length);
  expect(trail.bodiesDropped).toBe(pages - kept);

  const target = join(dir, 'snapshot.har');
  await trail.writeSnapshot(target);
  await trail.close();
  const text = await readFile(target, 'utf8');
  expect(text).not.toContain(TOKEN);
  const entries = (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries;
  expect(entries.map((entry) => entry.request.url)).toEqual(
    Array.from({ length: pages }, (_, i) => `https://dp.example/api/tasks?page=${i + 1}`),
  );
  for (const entry of entries) expect(entry.response.status).toBe(200);
  const whole = entries.filter((entry) => (entry.response.content.text ?? '').includes(`"t`));
  expect(whole.map((entry) => entry.request.url)).toEqual(
    entries.slice(pages - kept).map((entry) => entry.request.url),
  );
  for (const entry of entries.slice(0, pages - kept)) {
    expect(entry.response.content.text ?? '').toBe('');
    expect(entry.response.content.comment).toBe(TRUNCATED_COMMENT);
  }
});

it('keeps the newest body whole even when it alone is over the budget', async () => {
  const trail = await HarTrail.temporary(() => [TOKEN], 100);
  trail.record(page(1));
  trail.record(page(2));
  expect(trail.bodiesDropped).toBe(1);
  expect(trail.heldBodyLength).toBe(page(2).response!.body.length);
  await trail.close();
});
