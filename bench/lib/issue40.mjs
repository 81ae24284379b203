// The figures of issue 40, each a ratio to its baseline measured beside it in the same run, with the load
// average (1 min) when it was taken: the machine is shared, so CPU time (user + system) of paired runs is
// compared, never wall time.
import { loadavg } from 'node:os';
import { exportCost } from './export-cost.mjs';
import { POLITE_RATE, politeExport } from './polite.mjs';
import { scanFloor } from './scan-floor.mjs';

/** Paired runs of each export figure: its median is the figure. */
export const EXPORT_PAIRS = 5;
/** ≤ this × the node:http loop's CPU time, at every page size and server. */
export const EXPORT_CPU_CEILING = 1.05;
/** Items of the fast servers the issue's export figures read. */
export const ISSUE40_FAST_ITEMS = 100_000;
/** Page sizes of the issue's export figures: a fast server is started per size (it renders its pages once). */
export const ISSUE40_PAGE_SIZES = [100, 1000];

/**
 * `servers`: `fast` (page size → a fast server of ISSUE40_FAST_ITEMS), `demo` (the scale-100 demo, whose
 * pages are rendered per request and top out at 100), `tenants` (the frozen 40-tenant demo) and `polite`
 * (a scale-1 demo that answers 429 beyond POLITE_RATE requests a second).
 */
export async function issue40Figures(bundle, clientEnv, servers, { format, log }) {
  const rows = [];
  const exports = [
    ...ISSUE40_PAGE_SIZES.map((size) => ({
      server: servers.fast.get(size),
      size,
      where: 'a server answering from memory',
    })),
    { server: servers.demo, size: 100, where: 'the demo (pages rendered per request)' },
  ];
  const results = { exports: [] };
  for (const { server, size, where } of exports) {
    log(`issue 40: export CPU, pages of ${size}, ${where}`);
    const x = await exportCost(bundle, clientEnv(server), {
      baseUrl: server.baseUrl,
      resource: 'tasks',
      pageSize: size,
      runs: EXPORT_PAIRS,
    });
    results.exports.push({ ...x, where });
    rows.push({
      figure: `issue 40: export ${x.items.toLocaleString('en')} tasks, ndjson, pages of ${size}, from ${where}: CPU time vs the node:http loop (median ms and median ratio of ${EXPORT_PAIRS} pairs)`,
      dpx: format(x.dpxCpuMs, 0),
      baseline: format(x.loopCpuMs, 0),
      value: `${format(x.cpuRatio)}× (pairs ${x.ratios.map((ratio) => format(ratio)).join(', ')})`,
      target: `≤ ${EXPORT_CPU_CEILING}×`,
      met: x.cpuRatio <= EXPORT_CPU_CEILING,
      load: loadavg()[0],
    });
  }
  log('issue 40: the scan against its floor, 40 tenants');
  const scan = await scanFloor(bundle, clientEnv(servers.tenants), servers.tenants);
  results.scan = scan;
  rows.push({
    figure: `issue 40: count --plan scan over 40 tenants: requests that read data vs the floor (root pages at 100 + unit pages + index); ${scan.verification} more verify (${scan.verified})`,
    dpx: String(scan.reading),
    baseline: String(scan.floor),
    value: `${scan.reading - scan.floor} over the floor`,
    target: '≤ floor + 2',
    met: scan.reading <= scan.floor + 2 && scan.chosen === 'scan',
    load: loadavg()[0],
  });
  log(`issue 40: an export from a server limited to ${POLITE_RATE} requests a second`);
  const polite = await politeExport(bundle, clientEnv(servers.polite), 'tasks');
  results.polite = polite;
  rows.push({
    figure: `issue 40: list --all from a server limited to ${POLITE_RATE} requests/s, dpx's own rate: answers of 429 (${polite.requests} requests, ${polite.records.toLocaleString('en')} records)`,
    dpx: String(polite.refused),
    baseline: '0',
    value: `${polite.refused} × 429`,
    target: 'none',
    met: polite.refused === 0,
    load: loadavg()[0],
  });
  // The explorer's memory window (RSS at the end of a 100,000-record list, pages of 1,000 and of 100)
  // belongs here: worker `explorer` adds it.
  return { rows, results };
}
