// The explorer's memory at the end of a long list: a fresh explorer in a pty opens the fast server's list
// and presses `n` until the footer says `end`, with the server's page size set one way and then the other,
// so that what the explorer keeps is seen to follow a number of records and not of pages. Its RSS is read
// from /proc at the end (VmRSS) and at its highest (VmHWM).
import { readFileSync } from 'node:fs';
import { startFastServer } from './fast.mjs';
import { ExplorerPty } from './pty.mjs';

/** The walks: records in the list and the server's page size. */
export const MEMORY_WALKS = [
  { items: 100_000, pageSize: 1_000 },
  { items: 100_000, pageSize: 100 },
  { items: 1_000_000, pageSize: 1_000 },
];
/** The most the explorer may hold at the end of any of the walks (issue 40). */
export const MEMORY_TARGET_MIB = 150;

function statusKiB(pid, field) {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

const onPage = (page) => (screen) => new RegExp(`page (${page}|${page.toLocaleString('en')})/[\\d,]+`).test(screen);

/**
 * One walk: the list opened from the palette, then `n` pressed page by page to the last. Resolves with
 * the RSS at the end and its peak, in MiB, and the pages walked.
 */
async function walk(bundle, env, { items, pageSize }) {
  const server = await startFastServer(items, pageSize, { lazy: items > 100_000 });
  const explorer = new ExplorerPty(bundle, [], { ...env, DPX_BASE_URL: server.baseUrl, DPX_TOKEN: server.token });
  try {
    await explorer.waitFor((screen) => /\d+\/\d+ resources/.test(screen), 20_000, 'the catalog');
    await explorer.settle();
    for (const key of ':tasks\r') {
      explorer.process.write(key);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await explorer.waitFor(onPage(1), 20_000, 'the first page');
    const pages = Math.ceil(items / pageSize);
    for (let page = 2; page <= pages; page += 1) {
      explorer.process.write('n');
      await explorer.waitFor(onPage(page), 20_000, `page ${page}`);
    }
    await explorer.waitFor((screen) => / · end/.test(screen), 20_000, 'the end of the list');
    await explorer.settle(500);
    const result = {
      items,
      pageSize,
      pages,
      endMiB: (statusKiB(explorer.pid, 'VmRSS') ?? 0) / 1024,
      peakMiB: (statusKiB(explorer.pid, 'VmHWM') ?? 0) / 1024,
    };
    await explorer.quit();
    return result;
  } finally {
    explorer.process.kill();
    await server.close();
  }
}

/** Every walk of MEMORY_WALKS, one after the other, each in a fresh explorer against a fresh server. */
export async function explorerMemory(bundle, env, log = () => {}) {
  const walks = [];
  for (const shape of MEMORY_WALKS) {
    log(
      `explorer memory: ${shape.items.toLocaleString('en')} tasks at pages of ${shape.pageSize.toLocaleString('en')}`,
    );
    walks.push(await walk(bundle, env, shape));
  }
  return walks;
}

/** The bench's rows: each walk's RSS at the end, side by side by page size. */
export function memoryRows(walks, format) {
  return walks.map((w) => ({
    figure: `explorer: RSS at the end of ${w.items.toLocaleString('en')} tasks by n, pages of ${w.pageSize.toLocaleString('en')} (end / peak MiB)`,
    dpx: `${format(w.endMiB, 0)} / ${format(w.peakMiB, 0)}`,
    baseline: '—',
    value: `${format(w.endMiB, 0)} MiB`,
    target: `≤ ${MEMORY_TARGET_MIB} MiB`,
    met: w.endMiB <= MEMORY_TARGET_MIB,
  }));
}
