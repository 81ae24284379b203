import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { DataWriter } from '../../../src/cli/io.js';
import { createRecordSink } from '../../../src/cli/format/records.js';

async function render(format: 'json' | 'ndjson' | 'csv' | 'table', pages: Record<string, unknown>[][], pretty = false) {
  let text = '';
  const notes: string[] = [];
  const stream = new Writable({
    write(chunk, _e, cb) {
      text += chunk.toString();
      cb();
    },
  });
  const sink = createRecordSink(format, new DataWriter(stream), {
    width: 80,
    pretty,
    note: (m) => notes.push(m),
    lineEnd: '\r\n',
  });
  for (const page of pages) await sink.page({ items: page });
  await sink.finish({ pagesFetched: pages.length, totalCount: 3 });
  return { text, notes };
}

describe('record sinks', () => {
  const pages = [
    [
      { id: 1, a: 'x' },
      { id: 2, a: 'y' },
    ],
    [{ id: 3, a: 'z', late: true }],
  ];

  it('json is one parseable document in both layouts, with the counts', async () => {
    for (const pretty of [false, true]) {
      const { text } = await render('json', pages, pretty);
      expect(JSON.parse(text)).toEqual({ items: pages.flat(), total_count: 3, pages_fetched: 2 });
    }
    expect(JSON.parse((await render('json', [[]])).text)).toEqual({ items: [], total_count: 3, pages_fetched: 1 });
    expect(JSON.parse((await render('json', [[]], true)).text)).toEqual({
      items: [],
      total_count: 3,
      pages_fetched: 1,
    });
  });

  it('ndjson is one record per line', async () => {
    const { text } = await render('ndjson', pages);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(pages.flat());
  });

  it('csv takes its header from the first page and names fields that came later', async () => {
    const { text, notes } = await render('csv', pages);
    expect(text).toBe('id,a\r\n1,x\r\n2,y\r\n3,z\r\n');
    expect(notes.join('\n')).toMatch(/late/);
  });

  it('table keeps the grid of the first page and says when there is nothing', async () => {
    const { text } = await render('table', pages);
    expect(text.split('\n')[0]).toBe('id  a');
    expect((await render('table', [[]])).notes).toContain('no items');
  });
});
