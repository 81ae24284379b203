// The ticket's report (a count, a list grouped by error code and an x-ray, recorded over HTTP against
// the 40-tenant demo) opened in headless Chromium: it renders, its tables hold the case's numbers, its
// picture is drawn, and the page asks the network for nothing.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { useDemo } from '../helpers/demo.js';
import { recordTicketCase, type RecordedCase } from '../helpers/report-case.js';
import { dpx } from '../integration/cli/harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
let recorded: RecordedCase;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  recorded = await recordTicketCase(demo);
});
afterAll(async () => {
  await browser?.close();
});

describe('the report in Chromium', () => {
  it("renders the case's numbers and picture, and sends no request", async () => {
    const target = join(recorded.dir, 'report.html');
    const { code, stderr } = await dpx(['report', recorded.file, '-o', target]);
    expect(code, stderr).toBe(0);
    const page = await browser.newPage();
    const url = pathToFileURL(target).href;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.title()).toBe('Case report: case.har');

    const tables = await page.$$eval('table', (all) =>
      all.map((table) => ({
        kind: table.dataset['kind'],
        head: [...table.querySelectorAll('thead th')].map((cell) => (cell.textContent ?? '').trim()),
        rows: [...table.querySelectorAll('tbody tr')].map((row) =>
          [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim()),
        ),
        height: table.getBoundingClientRect().height,
      })),
    );
    const [matrix, groups, nodes] = tables;
    expect(tables.map((table) => table.kind)).toEqual(['matrix', 'groups', 'nodes']);
    for (const table of tables) expect(table.height).toBeGreaterThan(0);
    expect(matrix!.head).toEqual(['unit', ...recorded.count.columns, 'total']);
    expect(matrix!.rows).toEqual(
      recorded.count.rows.map((row) => [
        row.ou_name,
        ...recorded.count.columns.map((column) => row.counts[column]!.toLocaleString('en-US')),
        row.total.toLocaleString('en-US'),
      ]),
    );
    expect(groups!.rows).toEqual(
      recorded.groups.groups.map((group) => [group.key['error_code'], group.count.toLocaleString('en-US')]),
    );
    expect(nodes!.rows.map((row) => row[1])).toEqual(recorded.xray.nodes.map((node) => node.label));

    // The x-ray is drawn: a box per record, the root's name on screen.
    const picture = await page.$eval('figure svg', (svg) => ({
      width: svg.getBoundingClientRect().width,
      nodes: svg.querySelectorAll('g.node').length,
      text: svg.textContent ?? '',
    }));
    expect(picture.width).toBeGreaterThan(200);
    expect(picture.nodes).toBe(recorded.xray.nodes.length);
    expect(picture.text).toContain(recorded.xray.nodes[0]!.label);

    const text = await page.locator('body').innerText();
    for (const token of recorded.tokens) expect(text).not.toContain(token);
    // The document itself is the one request; nothing else was asked for.
    expect(requests).toEqual([url]);
    await page.close();
  });
});
