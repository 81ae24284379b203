// `npm run bench`: dpx measured against the least a Node program could do for the same job, in the same
// run on the same machine. Every figure is a ratio to its baseline. Prints a table, writes
// bench/results/latest.json (not committed) and bench/LATEST.md (committed; bench/README.md reads it).
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdtempSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoProcess } from './lib/demo.mjs';
import { startFastServer } from './lib/fast.mjs';
import {
  cpuTicks,
  machineTicks,
  median,
  memorySource,
  peakRssKiB,
  percentile,
  runNode,
  stolenPercent,
  ticksPerSecond,
} from './lib/measure.mjs';
import { ExplorerPty } from './lib/pty.mjs';
import { xrayFigures } from './lib/xray.mjs';
import { countPlanner, plannerRows, PLANNER_RATE, PLANNER_TENANTS } from './lib/planner.mjs';
import { explorerMemory, memoryRows } from './lib/explorer-memory.mjs';
import { FETCH_INDEX, HTTP_INDEX } from './lib/start-baselines.mjs';
import { ISSUE40_FAST_ITEMS, ISSUE40_PAGE_SIZES, issue40Figures } from './lib/issue40.mjs';
import { POLITE_RATE } from './lib/polite.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const bundle = join(root, 'dist', 'dpx.js');
const scratch = mkdtempSync(join(tmpdir(), 'dpx-bench-'));
/**
 * Runs of each side, interleaved. A start or a short export is over in a fraction of a second to a
 * second, so a hiccup of the shared machine weighs more in it than in a long export: those get more runs.
 */
const COLD_RUNS = 21;
const EXPORT_RUNS = 5;
const SHORT_EXPORT_RUNS = 11;
/** An export of at most this many items is a short one. */
const SHORT_EXPORT_ITEMS = 20_000;
const KEY_PRESSES = 200;
/** Walks of KEY_PRESSES presses, each in a fresh explorer; the key figures are the median walk's. */
const KEY_WALKS = 3;
/** How long the explorer is left alone on the catalog and on the list, to see what it does unasked. */
const IDLE_MS = 5_000;
const FIRST_FRAME_RUNS = 11;
const COUNT_RUNS = 5;
/** Tenants of the demo for the count matrix: with the default seed, 202 units in its first region. */
const COUNT_TENANTS = 30;
/**
 * Its data scale: about 1,400 tasks over those units, so that the demo answers a count in a millisecond
 * or so and the figure shows the clients' cost rather than the server's filtering.
 */
const COUNT_SCALE = 0.1;
const COUNT_CONCURRENCY = 8;
/**
 * The lists of the server that answers from memory (bench/fast-server.mjs): against it the export
 * measures dpx's own cost per page and record, which the demo's filtering and rendering of every page
 * would otherwise hide.
 */
const FAST_ITEMS = [10_000, 100_000];
const EXPORT_PAGE_SIZE = 100;
/** Of the node:http loop's throughput, from the demo and from the server that answers from memory. */
const EXPORT_TARGET = 1.0;
/** At most this many times the node:http loop's CPU time for the same export. */
const EXPORT_CPU_TARGET = 1.2;

// The list the export and the explorer walk. Only the bench names it: dpx itself learns it from the index.
const RESOURCE = 'tasks';
// What the count matrix counts by, and where the baseline finds the units and the list. The spec leaves
// task states open, so no schema lists them and dpx would read them off one page of the newest tasks;
// the bench names the demo's nine, so that the matrix is the whole one.
const COUNT_FIELD = 'status';
const COUNT_VALUES = [
  'scheduled',
  'queued',
  'in_progress',
  'aborting',
  'completed',
  'completed_with_warnings',
  'failed',
  'aborted',
  'skipped',
];
const UNITS_PATH = '/organizational-units';
const LIST_PATH = `/${RESOURCE}`;

// No baseline here has a rate ceiling, so dpx's (which starts at 20 requests/s and grows while answers stay
// fast) is lifted for every figure: they measure dpx's own cost.
const LIFTED_RATE = '100000';

function clientEnv(demo) {
  const env = {
    ...process.env,
    DPX_BASE_URL: demo.baseUrl,
    DPX_TOKEN: demo.token,
    DPX_CONFIG: join(scratch, 'config.json'),
    XDG_CACHE_HOME: join(scratch, 'cache'),
    DPX_RATE: LIFTED_RATE,
  };
  delete env.DPX_PROFILE;
  return env;
}

function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

function checkRun(what, run) {
  if (run.code !== 0)
    throw new Error(`${what} exited with ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return run;
}

async function coldStart(demo) {
  const env = clientEnv(demo);
  const dpx = [];
  const http = [];
  const fetched = [];
  const uncached = [];
  // Interleaved, so drift in the machine's load lands on every side alike; one warm-up each first. dpx's
  // warm-up writes its code cache, as a user's first command does; a start without it is timed beside.
  for (let i = -1; i < COLD_RUNS; i += 1) {
    const a = checkRun('dpx resources', await runNode([bundle, 'resources', '--output', 'json'], env));
    const b = checkRun('node:http asking for the index', await runNode(['--input-type=module', '-e', HTTP_INDEX], env));
    const c = checkRun('fetch asking for the index', await runNode(['--input-type=module', '-e', FETCH_INDEX], env));
    const d = checkRun(
      'dpx resources without its code cache',
      await runNode([bundle, 'resources', '--output', 'json'], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' }),
    );
    if (i >= 0) {
      dpx.push(a.ms);
      http.push(b.ms);
      fetched.push(c.ms);
      uncached.push(d.ms);
    }
  }
  return {
    dpxMs: median(dpx),
    baselineMs: median(http),
    ratio: median(dpx) / median(http),
    fetchMs: median(fetched),
    fetchRatio: median(dpx) / median(fetched),
    uncachedMs: median(uncached),
    uncachedRatio: median(uncached) / median(http),
    runs: COLD_RUNS,
  };
}

async function exportList(demo, label, runs) {
  const env = clientEnv(demo);
  const firstPage = `${demo.baseUrl}/${RESOURCE}?limit=${EXPORT_PAGE_SIZE}`;
  const dpxRuns = [];
  const loopRuns = [];
  for (let i = 0; i < runs; i += 1) {
    dpxRuns.push(
      checkRun(
        'dpx list --all',
        await runNode(
          [bundle, 'list', RESOURCE, '--all', '--output', 'ndjson', '--page-size', String(EXPORT_PAGE_SIZE)],
          env,
        ),
      ),
    );
    loopRuns.push(checkRun('the node:http loop', await runNode([join(here, 'http-loop.mjs'), firstPage], env)));
  }
  const dpxMs = median(dpxRuns.map((run) => run.ms));
  const loopMs = median(loopRuns.map((run) => run.ms));
  const items = dpxRuns[0].lines;
  if (loopRuns[0].lines !== items) log(`${label}: dpx wrote ${items} lines, the loop ${loopRuns[0].lines}`);
  const cpu = (all) => (all.every((run) => run.cpuMs !== undefined) ? median(all.map((run) => run.cpuMs)) : undefined);
  const dpxCpuMs = cpu(dpxRuns);
  const loopCpuMs = cpu(loopRuns);
  return {
    label,
    items,
    dpxItemsPerSecond: items / (dpxMs / 1000),
    loopItemsPerSecond: loopRuns[0].lines / (loopMs / 1000),
    throughputRatio: items / dpxMs / (loopRuns[0].lines / loopMs),
    ...(dpxCpuMs === undefined || loopCpuMs === undefined
      ? {}
      : { dpxCpuMs, loopCpuMs, cpuRatio: dpxCpuMs / loopCpuMs }),
    dpxPeakMiB: Math.max(...dpxRuns.map((run) => run.peakMiB)),
    loopPeakMiB: Math.max(...loopRuns.map((run) => run.peakMiB)),
  };
}

/**
 * The same export with and without --trail, interleaved so that both see the same machine: the trail
 * must cost about the same for every page, whatever the file's size (it once copied the file per entry).
 */
async function trailExport(demo) {
  const env = clientEnv(demo);
  const trail = join(scratch, 'export.har');
  const plain = [];
  const traced = [];
  for (let i = 0; i < EXPORT_RUNS; i += 1) {
    plain.push(
      checkRun(
        'dpx list --all',
        await runNode([bundle, 'list', RESOURCE, '--all', '--output', 'ndjson', '--page-size', '100'], env),
      ),
    );
    // A new case each run: --trail appends, and the figure is one export's trail, not a growing case's.
    rmSync(trail, { force: true });
    traced.push(
      checkRun(
        'dpx list --all --trail',
        await runNode(
          [bundle, '--trail', trail, 'list', RESOURCE, '--all', '--output', 'ndjson', '--page-size', '100'],
          env,
        ),
      ),
    );
  }
  const pages = await trailPages(trail);
  const trailMiB = statSync(trail).size / (1024 * 1024);
  rmSync(trail, { force: true });
  const plainMs = median(plain.map((run) => run.ms));
  const tracedMs = median(traced.map((run) => run.ms));
  return {
    pages,
    trailMiB,
    plainMs,
    tracedMs,
    ratio: tracedMs / plainMs,
    tracedPeakMiB: Math.max(...traced.map((run) => run.peakMiB)),
  };
}

/**
 * The pages a trail holds: every entry but the index. A trail is written an entry a line, and read so
 * here: parsed whole, its 97 MiB left this process a heap of several hundred MiB, whose collection
 * during the explorer's figures that follow was timed as the explorer's key presses.
 */
async function trailPages(path) {
  let pages = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    // Entries after the first start with the comma that separates them.
    const text = line.startsWith(',') ? line.slice(1) : line;
    // The head line opens the document ({"log":…) and is no value of its own.
    if (!text.startsWith('{') || text.startsWith('{"log"')) continue;
    const entry = JSON.parse(text);
    // A case's pages (one per command) start the same way as its entries; only entries hold a request.
    if (entry.request !== undefined && new URL(entry.request.url).pathname !== '/') pages += 1;
  }
  return pages;
}

/** Types `keys` one at a time, as a person would, letting each settle. */
async function type(explorer, keys) {
  for (const key of keys) {
    explorer.process.write(key);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const onCatalog = (screen) => screen.includes(RESOURCE) && /\d+\/\d+ resources/.test(screen);
const onList = (page) => (screen) => new RegExp(`page ${page}/\\d`).test(screen);

/**
 * Start to first catalog frame, the median of several starts, each followed by a run of the index
 * baseline, so that both sides see the same machine (one start alone varies by ±30 %).
 */
async function firstFrames(demo) {
  const env = clientEnv(demo);
  const explorer = [];
  const node = [];
  for (let i = -1; i < FIRST_FRAME_RUNS; i += 1) {
    const run = new ExplorerPty(bundle, [], env);
    try {
      const ms = (await run.waitFor(onCatalog, 20_000, 'the catalog')) - run.startedAt;
      await run.settle();
      await run.quit();
      const baseline = checkRun(
        'node fetching the index',
        await runNode(['--input-type=module', '-e', FETCH_INDEX], env),
      );
      if (i >= 0) {
        explorer.push(ms);
        node.push(baseline.ms);
      }
    } finally {
      run.process.kill();
    }
  }
  return {
    firstFrameMs: median(explorer),
    baselineMs: median(node),
    firstFrameRatio: median(explorer) / median(node),
    runs: FIRST_FRAME_RUNS,
  };
}

/** The share of one core the process used over `IDLE_MS` of nobody pressing anything, in %. */
async function idleCpu(pid) {
  const before = cpuTicks(pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return (((cpuTicks(pid) - before) / ticksPerSecond) * 1000 * 100) / IDLE_MS;
}

/**
 * From the catalog to the first page of the list, by the palette, as a person would. With `idle`, the
 * explorer's CPU use while left alone on the catalog and then on the list (no watch is on).
 */
async function openList(explorer, idle) {
  await explorer.waitFor(onCatalog, 20_000, 'the catalog');
  await explorer.settle();
  if (idle) idle.catalogPercent = await idleCpu(explorer.pid);
  await type(explorer, `:${RESOURCE}\r`);
  await explorer.waitFor(onList(1), 20_000, `the ${RESOURCE} list`);
  await explorer.settle(300);
  if (idle) idle.listPercent = await idleCpu(explorer.pid);
}

async function explorerFigures(demo, { idle = false } = {}) {
  const explorer = new ExplorerPty(bundle, [], clientEnv(demo));
  let peakKiB = 0;
  const poll = setInterval(() => {
    peakKiB = Math.max(peakKiB, peakRssKiB(explorer.pid) ?? 0);
  }, 50);
  const idleCpuPercent = idle ? {} : undefined;
  try {
    await openList(explorer, idleCpuPercent);
    const latencies = [];
    // Down through the rows (the explorer fetches pages as the cursor nears the end), with page jumps.
    // Each press on a settled screen: a frame still on its way from the press before (a page that
    // arrived) would otherwise count as this press's answer.
    for (let i = 0; i < KEY_PRESSES; i += 1) {
      const key = i % 10 === 9 ? 'n' : 'j';
      await explorer.settle(30);
      latencies.push(await explorer.press(key));
    }
    const screen = explorer.screen();
    const position = /page ([\d,]+)\/([\d,]+)/.exec(screen);
    await explorer.quit();
    return {
      keyPresses: latencies.length,
      keyP50Ms: percentile(latencies, 50),
      keyP95Ms: percentile(latencies, 95),
      keyMaxMs: Math.max(...latencies),
      reachedPage: position ? `${position[1]}/${position[2]}` : 'unknown',
      peakMiB: peakKiB / 1024,
      idleCpuPercent,
    };
  } finally {
    clearInterval(poll);
    explorer.process.kill();
  }
}

/**
 * The key-press figures over KEY_WALKS walks, each in an explorer of its own: the median walk's p50
 * and p95, the highest peak RSS. A p95 of 200 presses is their tenth slowest, so one walk's figure moves
 * with whatever else the shared machine did during its ten seconds; the median walk does not.
 */
async function keyWalks(demo) {
  const walks = [];
  const before = machineTicks();
  for (let i = 0; i < KEY_WALKS; i += 1) walks.push(await explorerFigures(demo, { idle: i === 0 }));
  const stolen = stolenPercent(before);
  const middle = (pick) => median(walks.map(pick));
  return {
    ...walks[0],
    keyP50Ms: middle((walk) => walk.keyP50Ms),
    keyP95Ms: middle((walk) => walk.keyP95Ms),
    walkP95Ms: walks.map((walk) => walk.keyP95Ms),
    keyMaxMs: Math.max(...walks.map((walk) => walk.keyMaxMs)),
    peakMiB: Math.max(...walks.map((walk) => walk.peakMiB)),
    stolenPercent: stolen,
  };
}

async function explorerRequests(demo) {
  const trail = join(scratch, 'explorer.har');
  const explorer = new ExplorerPty(bundle, ['--trail', trail], clientEnv(demo));
  try {
    await openList(explorer);
    for (const [key, page] of [
      ['n', 2],
      ['p', 1],
      ['n', 2],
    ]) {
      await explorer.press(key);
      await explorer.waitFor(onList(page), 10_000, `page ${page}`);
      await explorer.settle(300);
    }
    const listScreen = explorer.screen();
    await explorer.press('\r');
    await explorer.settle(500);
    const recordOpened = explorer.screen() !== listScreen && !/page \d+\/\d/.test(explorer.screen());
    await explorer.press('\x1b');
    await explorer.waitFor(onList(2), 10_000, 'the list again');
    await explorer.settle(300);
    await explorer.quit();
    const entries = JSON.parse(readFileSync(trail, 'utf8')).log.entries;
    const urls = entries.map((entry) => new URL(entry.request.url));
    const counts = new Map();
    for (const url of urls) counts.set(url.toString(), (counts.get(url.toString()) ?? 0) + 1);
    const indexFetches = urls.filter((url) => url.pathname === '/').length;
    // The least that shows what was seen: the index once, list pages 1 and 2 once each, the record once.
    const minimum = 4;
    return {
      requests: entries.length,
      minimum,
      ratio: entries.length / minimum,
      indexFetches,
      repeatedUrls: [...counts.entries()]
        .filter(([, count]) => count > 1)
        .map(([url, count]) => `${url.replace(demo.baseUrl, '')} ×${count}`),
      recordOpened,
      requested: urls.map((url) => `${url.pathname}${url.search}`),
    };
  } finally {
    explorer.process.kill();
  }
}

/** The records the x-ray starts from: a failed restore task (links to its backup, group, unit) and that backup (tasks name it). */
async function xrayTargets(demo) {
  const filter = encodeURIComponent(JSON.stringify({ category: 'restore', status: 'failed' }));
  const response = await fetch(`${demo.baseUrl}/${RESOURCE}?limit=1&filter=${filter}`, {
    headers: { authorization: `Bearer ${demo.token}` },
  });
  const task = (await response.json())._embedded.items[0];
  return [
    { label: 'a failed restore task', resource: RESOURCE, id: task.id },
    { label: 'its backup', resource: 'backups', id: task.backup_id },
  ];
}

async function xrays(demo) {
  const figures = [];
  for (const target of await xrayTargets(demo))
    figures.push(await xrayFigures(bundle, clientEnv(demo), scratch, target));
  return figures;
}

/**
 * The tenant health matrix: `dpx count tasks --by status --ou all` over about 200 units, against a loop
 * of plain fetches sending the same count requests with the same concurrency (the rate ceiling lifted,
 * as for every figure). One run with a trail counts the requests dpx sent, against the least the
 * question needs.
 */
async function countMatrix(demo) {
  const env = clientEnv(demo);
  // The per-cell plan, as the loop counts: the planner's own figure is countPlanner's.
  const args = [
    bundle,
    'count',
    RESOURCE,
    '--by',
    COUNT_FIELD,
    '--values',
    COUNT_VALUES.join(','),
    '--ou',
    'all',
    '--plan',
    'cells',
    '--concurrency',
    String(COUNT_CONCURRENCY),
    '--output',
    'json',
  ];
  const trail = join(scratch, 'count.har');
  const first = checkRun(
    'dpx count (with a trail)',
    await runNode([...args, '--trail', trail], env, { keepStdout: true }),
  );
  const document = JSON.parse(first.stdout);
  const units = document.rows.length;
  // A cell per value and the unit's total, asked for itself.
  const cells = units * (document.columns.length + 1);
  const sent = JSON.parse(readFileSync(trail, 'utf8')).log.entries.length;
  // Discovery: the index and the pages of units.
  const minimum = cells + 1 + Math.ceil(units / 100);
  const loopArgs = [
    join(here, 'count-loop.mjs'),
    demo.baseUrl,
    UNITS_PATH,
    LIST_PATH,
    COUNT_FIELD,
    String(COUNT_CONCURRENCY),
    ...document.columns,
  ];
  const dpxRuns = [];
  const loopRuns = [];
  for (let i = 0; i < COUNT_RUNS; i += 1) {
    dpxRuns.push(checkRun('dpx count', await runNode(args, env)).ms);
    const loop = checkRun('the count loop', await runNode(loopArgs, env, { keepStdout: i === 0 }));
    if (i === 0) {
      const counted = JSON.parse(loop.stdout);
      const dpxSum = document.rows.reduce(
        (sum, row) => sum + Object.values(row.counts).reduce((cells, count) => cells + count, 0),
        0,
      );
      const dpxTotals = document.rows.reduce((sum, row) => sum + row.total, 0);
      if (counted.sum !== dpxSum || counted.totals !== dpxTotals || counted.cells !== cells) {
        log(
          `count: the loop counted ${counted.sum} (totals ${counted.totals}) in ${counted.cells} cells, dpx ${dpxSum} (totals ${dpxTotals}) in ${cells}`,
        );
      }
    }
    loopRuns.push(loop.ms);
  }
  const dpxMs = median(dpxRuns);
  const loopMs = median(loopRuns);
  return {
    units,
    values: document.columns.length,
    cells,
    dpxMs,
    loopMs,
    throughputRatio: loopMs / dpxMs,
    requests: document.requests,
    sent,
    minimum,
    dpxRuns,
    loopRuns,
  };
}

/** Each run of the count planner's figure, both plans. */
function plannerRuns(p) {
  const runs = (side) => side.runsMs.map((ms, i) => `${format(ms, 0)} / ${side.runsRequests[i]}`).join(', ');
  return `Count planner runs at --rate ${PLANNER_RATE} (ms / requests): auto ${runs(p.auto)}; per cell ${runs(p.cells)}.`;
}

/**
 * A ratio to two decimals, or three when two would round it onto its target: 0.797 against ≥ 0.8
 * reads 0.797, not "0.80 … NO".
 */
function formatRatio(value, target) {
  return format(value, format(value) === format(target) && value !== target ? 3 : 2);
}

function format(value, digits = 2) {
  return typeof value === 'number' ? value.toFixed(digits) : String(value);
}

function table(rows) {
  const header = ['figure', 'dpx', 'baseline', 'ratio / value', 'target', 'met', 'load'];
  return markdownTable(
    header,
    rows.map((row) => [
      row.figure,
      row.dpx,
      row.baseline,
      row.value,
      row.target,
      row.met === undefined ? '—' : row.met ? 'yes' : 'NO',
      format(row.load, 1),
    ]),
  );
}

/**
 * Rows that each take the load average (1 min) as they are added, unless they carry the one they were measured
 * under: beside its figure, it says how busy the machine was.
 */
function loadStampedRows() {
  const rows = [];
  rows.push = (...added) =>
    Array.prototype.push.apply(
      rows,
      added.map((row) => ({ load: loadavg()[0], ...row })),
    );
  return rows;
}

function markdownTable(header, lines) {
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(line)].join('\n');
}

async function main() {
  const started = Date.now();
  log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; memory from ${memorySource}`);
  const everything = only.length === 0;
  const counting = everything || only.includes('count');
  const planning = counting || only.includes('planner');
  const issue40 = everything || only.includes('issue40');
  const memory = everything || only.includes('explorer-memory');
  log(
    `starting the demo control planes (${everything || issue40 ? 'scale 100, ' : ''}${everything ? 'scale 10, ' : ''}${[counting ? `${COUNT_TENANTS} tenants` : '', planning || issue40 ? `${PLANNER_TENANTS} tenants, frozen` : ''].filter(Boolean).join(' and ')}) in their own processes`,
  );
  const [large, small, tenants, msp, polite, ...fast] = await Promise.all([
    everything || issue40 ? startDemoProcess(bundle, 100) : undefined,
    everything ? startDemoProcess(bundle, 10) : undefined,
    counting ? startDemoProcess(bundle, COUNT_SCALE, ['--tenants', String(COUNT_TENANTS)]) : undefined,
    planning || issue40 ? startDemoProcess(bundle, 1, ['--tenants', String(PLANNER_TENANTS), '--frozen']) : undefined,
    issue40 ? startDemoProcess(bundle, 1, ['--rate-limit', String(POLITE_RATE)]) : undefined,
    ...(everything ? FAST_ITEMS.map((items) => startFastServer(items, EXPORT_PAGE_SIZE)) : []),
    ...(issue40 ? ISSUE40_PAGE_SIZES.map((size) => startFastServer(ISSUE40_FAST_ITEMS, size)) : []),
  ]);
  const fastBySize = new Map(
    issue40 ? ISSUE40_PAGE_SIZES.map((size, i) => [size, fast.at(i - ISSUE40_PAGE_SIZES.length)]) : [],
  );
  if (issue40) fast.splice(-ISSUE40_PAGE_SIZES.length);
  const servers = [large, small, tenants, msp, polite, ...fast, ...fastBySize.values()];
  // The machine is shared: its load says how much a figure that missed its target can be trusted.
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    memorySource,
    loadAtStart: loadavg()[0],
  };
  const machineAtStart = machineTicks();
  const rows = loadStampedRows();
  try {
    if (everything) await listExplorerAndXray(large, small, fast, results, rows);

    if (counting) {
      log('f. count matrix');
      results.count = await countMatrix(tenants);
      const c = results.count;
      rows.push({
        figure: `count matrix: ${RESOURCE} by ${COUNT_FIELD} over ${c.units} units × ${c.values} values, concurrency ${COUNT_CONCURRENCY} (median ms)`,
        dpx: format(c.dpxMs, 0),
        baseline: format(c.loopMs, 0),
        value: `${formatRatio(c.throughputRatio, 0.8)}× the loop's throughput`,
        target: '≥ 0.8×',
        met: c.throughputRatio >= 0.8,
      });
      rows.push({
        figure: 'count matrix requests vs the minimum (units × (values + total) + index + unit pages)',
        dpx: String(c.sent),
        baseline: String(c.minimum),
        value: `${format(c.sent / c.minimum)}×`,
        target: '= the minimum',
        met: c.sent === c.minimum,
      });
    }
    if (issue40) {
      const figures = await issue40Figures(
        bundle,
        clientEnv,
        { fast: fastBySize, demo: large, tenants: msp, polite },
        { format, log },
      );
      results.issue40 = figures.results;
      rows.push(...figures.rows);
    }
    if (memory) {
      log('h. explorer memory: a long list scrolled to its end, pages of 1,000 and of 100');
      results.explorerMemory = await explorerMemory(bundle, clientEnv({}), log);
      rows.push(...memoryRows(results.explorerMemory, format));
    }
    if (planning) {
      log(`g. count planner: auto vs per cell on ${PLANNER_TENANTS} tenants at --rate ${PLANNER_RATE}`);
      results.planner = await countPlanner(bundle, clientEnv(msp));
      rows.push(...plannerRows(results.planner, format));
      log(plannerRuns(results.planner));
    }
  } finally {
    await Promise.all(servers.map((server) => server?.close()));
    rmSync(scratch, { recursive: true, force: true });
  }
  results.seconds = Math.round((Date.now() - started) / 1000);
  results.loadAtEnd = loadavg()[0];
  results.stolenPercent = stolenPercent(machineAtStart);
  results.table = rows;

  const printed = table(rows);
  process.stdout.write(`${printed}\n`);
  if (!everything) {
    log(`only ${only.join(', ')}: bench/LATEST.md and bench/results/latest.json are left as they were`);
    return;
  }
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const notes = [
    `Explorer requests made: ${results.requests.requested.join(', ')}${results.requests.repeatedUrls.length ? `; repeated: ${results.requests.repeatedUrls.join(', ')}` : ''}.`,
    `Explorer key presses reached page ${results.explorer.reachedPage}; p95 of each walk ${results.explorer.walkP95Ms.map((ms) => format(ms, 1)).join(', ')} ms; slowest press ${format(results.explorer.keyMaxMs, 1)} ms; ${describeStolen(results.explorer.stolenPercent)} during the walks.`,
    ...results.xray.map(
      (x) =>
        `X-ray of ${x.label} (scale 100, medians of ${x.runs}): the record's round trip ${format(x.recordMs, 1)} ms (baseline ${format(x.baselineRecordMs, 1)} ms); the whole \`dpx xray … -o json\` ${format(x.wallMs, 0)} ms with ${x.nodes} records; the inbound queries went out with the record: ${x.inboundWithRecord ? 'yes' : 'NO'}.`,
    ),

    `The export with --trail peaked at ${format(results.trailExport.tracedPeakMiB, 0)} MiB and wrote ${format(results.trailExport.trailMiB, 0)} MiB of trail.`,
    plannerRuns(results.planner),
    `Count matrix runs (ms): dpx ${results.count.dpxRuns.map((ms) => format(ms, 0)).join(', ')}; loop ${results.count.loopRuns.map((ms) => format(ms, 0)).join(', ')}. dpx's json said ${results.count.requests} requests; the trail holds ${results.count.sent}.`,
    `Every figure runs with DPX_RATE=${LIFTED_RATE}: no baseline has a rate ceiling, so dpx's adaptive rate is lifted and the figures measure dpx's own cost.`,
  ];
  const runs = rememberRun(results, rows);
  writeFileSync(
    join(here, 'LATEST.md'),
    `# Latest benchmark\n\nProduced by \`npm run bench\` on ${results.date.slice(0, 10)} (node ${results.node}, ${results.cpus} CPUs, peak memory from ${memorySource}; ${results.seconds} s; load average ${format(results.loadAtStart, 1)} at the start, ${format(results.loadAtEnd, 1)} at the end; ${describeStolen(results.stolenPercent)} over the run).\nEach figure is measured against its baseline in the same run; the demo control plane runs in a separate process.\n\n${printed}\n\n${notes.map((note) => `- ${note}`).join('\n')}\n\n${spread(runs)}\n`,
  );
  log(`done in ${results.seconds} s; bench/results/latest.json and bench/LATEST.md written`);
}

/**
 * On a virtual machine the host may give part of its CPU time to other guests ("steal"): a run that
 * lost much of it times the host as well as dpx, key presses most of all.
 */
function describeStolen(percent) {
  return percent === undefined
    ? 'CPU time taken by the host unknown'
    : `${format(percent, 1)} % of the CPU time taken by the host`;
}

/** The last full runs, newest last, kept in bench/history.json (committed with LATEST.md) for the spread. */
const HISTORY = join(here, 'history.json');
const HISTORY_RUNS = 5;

function rememberRun(results, rows) {
  const history = existsSync(HISTORY) ? JSON.parse(readFileSync(HISTORY, 'utf8')) : [];
  history.push({
    date: results.date,
    load: [results.loadAtStart, results.loadAtEnd],
    stolenPercent: results.stolenPercent,
    figures: rows.map((row) => ({ figure: row.figure, value: row.value, met: row.met, load: row.load })),
  });
  const kept = history.slice(-HISTORY_RUNS);
  writeFileSync(HISTORY, `${JSON.stringify(kept, null, 1)}\n`);
  return kept;
}

/** Each figure with a target as it came out in each of the last runs, and how many of them met it. */
function spread(runs) {
  const header = [
    'figure',
    ...runs.map(
      (run, index) =>
        `run ${index + 1} (load ${format(run.load[0], 1)}${run.stolenPercent === undefined ? '' : `, stolen ${format(run.stolenPercent, 0)} %`})`,
    ),
    'met',
  ];
  const latest = runs.at(-1).figures.filter((figure) => figure.met !== undefined);
  const lines = latest.map(({ figure }) => {
    const seen = runs.map((run) => run.figures.find((other) => other.figure === figure));
    const met = seen.filter((other) => other?.met === true).length;
    const counted = seen.filter((other) => other?.met !== undefined).length;
    return [figure, ...seen.map((other) => other?.value ?? '—'), `${met} of ${counted}`];
  });
  return `## Spread over the last ${runs.length} full runs (oldest first)\n\n${markdownTable(header, lines)}`;
}

/** An export's throughput against the node:http loop's, and its CPU time where it was measured. */
function exportRows(figure, x) {
  const rows = [
    {
      figure,
      dpx: format(x.dpxItemsPerSecond, 0),
      baseline: format(x.loopItemsPerSecond, 0),
      value: `${formatRatio(x.throughputRatio, EXPORT_TARGET)}×`,
      target: `≥ ${EXPORT_TARGET}×`,
      met: x.throughputRatio >= EXPORT_TARGET,
    },
  ];
  if (x.cpuRatio !== undefined) {
    rows.push({
      figure: `${figure.replace(/ \(items\/s\)$/, '')}: CPU time (ms, user + system)`,
      dpx: format(x.dpxCpuMs, 0),
      baseline: format(x.loopCpuMs, 0),
      value: `${formatRatio(x.cpuRatio, EXPORT_CPU_TARGET)}×`,
      target: `≤ ${EXPORT_CPU_TARGET}×`,
      met: x.cpuRatio <= EXPORT_CPU_TARGET,
    });
  }
  return rows;
}

/** Figures a to e: start-up, export, the explorer and the x-ray. */
async function listExplorerAndXray(large, small, fast, results, rows) {
  log('a. cold start');
  results.coldStart = await coldStart(large);
  rows.push({
    figure: 'cold start: dpx resources --output json vs node:http asking for the index (median ms)',
    dpx: format(results.coldStart.dpxMs, 0),
    baseline: format(results.coldStart.baselineMs, 0),
    value: `${formatRatio(results.coldStart.ratio, 1.2)}×`,
    target: '≤ 1.2×',
    met: results.coldStart.ratio <= 1.2,
  });
  rows.push({
    figure: 'cold start, against the earlier baseline: node fetch asking for the index (median ms)',
    dpx: format(results.coldStart.dpxMs, 0),
    baseline: format(results.coldStart.fetchMs, 0),
    value: `${format(results.coldStart.fetchRatio)}×`,
    target: '—',
  });
  rows.push({
    figure: 'cold start without the code cache (a first run, or NODE_DISABLE_COMPILE_CACHE=1) vs node:http (median ms)',
    dpx: format(results.coldStart.uncachedMs, 0),
    baseline: format(results.coldStart.baselineMs, 0),
    value: `${format(results.coldStart.uncachedRatio)}×`,
    target: '—',
  });

  log('b. export, 10,000 and 100,000 tasks');
  results.exportSmall = await exportList(small, 'small', SHORT_EXPORT_RUNS);
  results.exportLarge = await exportList(large, 'large', EXPORT_RUNS);
  const { exportSmall: s, exportLarge: l } = results;
  rows.push(
    ...exportRows(`export ${l.items.toLocaleString('en')} tasks, ndjson, page size ${EXPORT_PAGE_SIZE} (items/s)`, l),
  );
  rows.push(...exportRows(`export ${s.items.toLocaleString('en')} tasks (items/s)`, s));
  rows.push({
    figure: `export peak RSS at ${l.items.toLocaleString('en')} tasks (MiB)`,
    dpx: format(l.dpxPeakMiB, 0),
    baseline: format(l.loopPeakMiB, 0),
    value: `${format(l.dpxPeakMiB, 0)} MiB`,
    target: '≤ 150 MiB',
    met: l.dpxPeakMiB <= 150,
  });
  const flat = l.dpxPeakMiB / s.dpxPeakMiB;
  results.exportRssGrowth = flat;
  // The loop's own growth shows how much of it is V8 letting the heap grow before collecting.
  const loopGrowth = l.loopPeakMiB / s.loopPeakMiB;
  rows.push({
    figure: `export peak RSS, ${l.items.toLocaleString('en')} vs ${s.items.toLocaleString('en')} tasks`,
    dpx: `${format(l.dpxPeakMiB, 0)} / ${format(s.dpxPeakMiB, 0)}`,
    baseline: `${format(l.loopPeakMiB, 0)} / ${format(s.loopPeakMiB, 0)}`,
    value: `${format(flat)}× (loop ${format(loopGrowth)}×)`,
    target: '≈ 1× (flat; ≤ 1.2×)',
    met: flat <= 1.2,
  });

  log(
    `b1. export from a server that answers from memory, ${FAST_ITEMS.map((items) => items.toLocaleString('en')).join(' and ')} tasks`,
  );
  results.exportFast = [];
  for (const [index, server] of fast.entries())
    results.exportFast.push(
      await exportList(server, 'fast', FAST_ITEMS[index] <= SHORT_EXPORT_ITEMS ? SHORT_EXPORT_RUNS : EXPORT_RUNS),
    );
  for (const x of results.exportFast)
    rows.push(
      ...exportRows(`export ${x.items.toLocaleString('en')} tasks from a server answering from memory (items/s)`, x),
    );

  log('b2. export with --trail, 1,000+ pages');
  results.trailExport = await trailExport(large);
  const t = results.trailExport;
  rows.push({
    figure: `list --all --trail over ${t.pages.toLocaleString('en')} pages (${format(t.trailMiB, 0)} MiB trail) vs no trail (median ms)`,
    dpx: format(t.tracedMs, 0),
    baseline: format(t.plainMs, 0),
    value: `${formatRatio(t.ratio, 1.3)}×`,
    target: '≤ 1.3×',
    met: t.ratio <= 1.3,
  });

  log('c. explorer: first frame, key presses, memory');
  results.firstFrame = await firstFrames(large);
  const f = results.firstFrame;
  rows.push({
    figure: `explorer: start to first catalog frame (ms, median of ${f.runs} starts)`,
    dpx: format(f.firstFrameMs, 0),
    baseline: format(f.baselineMs, 0),
    value: `${formatRatio(f.firstFrameRatio, 1.3)}×`,
    target: '≤ 1.3×',
    met: f.firstFrameRatio <= 1.3,
  });
  results.explorer = await keyWalks(large);
  const e = results.explorer;
  rows.push({
    figure: `explorer: key press to screen change, ${e.keyPresses} presses over ${RESOURCE}, median of ${KEY_WALKS} walks (p50 / p95 ms)`,
    dpx: `${format(e.keyP50Ms, 1)} / ${format(e.keyP95Ms, 1)}`,
    baseline: '—',
    value: `p95 ${format(e.keyP95Ms, 1)} ms${e.stolenPercent === undefined ? '' : `; host took ${format(e.stolenPercent, 1)} %`}`,
    target: 'p95 ≤ 12 ms on a quiet machine',
    met: e.keyP95Ms <= 12,
  });
  const { catalogPercent, listPercent } = e.idleCpuPercent;
  rows.push({
    figure: `explorer: CPU left alone ${IDLE_MS / 1000} s on the catalog / on the ${RESOURCE} list, no watch (% of a core)`,
    dpx: `${format(catalogPercent, 1)} / ${format(listPercent, 1)}`,
    baseline: '—',
    value: `${format(Math.max(catalogPercent, listPercent), 1)} %`,
    target: '≈ 0 (≤ 1 %)',
    met: Math.max(catalogPercent, listPercent) <= 1,
  });
  // The same walk over a list ten times shorter: memory must follow what is loaded, not the list's size.
  results.explorerSmall = await explorerFigures(small);
  const memoryRatio = e.peakMiB / results.explorerSmall.peakMiB;
  rows.push({
    figure: 'explorer: peak RSS, same walk over 104,000 vs 10,400 tasks (MiB)',
    dpx: `${format(e.peakMiB, 0)} / ${format(results.explorerSmall.peakMiB, 0)}`,
    baseline: '—',
    value: `${format(e.peakMiB, 0)} MiB; ${format(memoryRatio)}×`,
    target: '≤ 120 MiB; follows what is loaded (≤ 1.2×)',
    met: e.peakMiB <= 120 && memoryRatio <= 1.2,
  });

  log('d. explorer requests');
  results.requests = await explorerRequests(large);
  const r = results.requests;
  rows.push({
    figure: 'explorer requests: catalog, tasks, n, p, n, record, back',
    dpx: String(r.requests),
    baseline: String(r.minimum),
    value: `${format(r.ratio)}×; index ×${r.indexFetches}; repeats ${r.repeatedUrls.length}`,
    target: 'index once, no page fetched twice',
    met: r.indexFetches === 1 && r.repeatedUrls.length === 0,
  });

  log('e. x-ray: the first level');
  results.xray = await xrays(large);
  for (const x of results.xray) {
    rows.push({
      figure: `x-ray of ${x.label}: first request to whole first level (ms; ${x.firstLevelRequests} requests)`,
      dpx: format(x.firstLevelMs, 0),
      baseline: format(x.baselineFirstLevelMs, 0),
      value: `${formatRatio(x.ratio, 1.5)}×; one wave ${x.oneWave ? 'yes' : 'NO'}`,
      target: '≤ 1.5×; links read in one wave',
      met: x.ratio <= 1.5 && x.oneWave && x.inboundWithRecord,
    });
  }
  rows.push({
    figure: `x-ray requests: ${results.xray.map((x) => x.label).join(' / ')}`,
    dpx: results.xray.map((x) => x.requests).join(' / '),
    baseline: '—',
    value: `trail agrees: ${results.xray.every((x) => x.requestsMatchTrail) ? 'yes' : 'NO'}`,
    target: '= records read + inbound queries',
    met: results.xray.every((x) => x.requestsMatchTrail),
  });
}

/**
 * `npm run bench -- count` runs only the count matrix and the count planner, `-- planner` only the
 * planner, `-- issue40` only the figures of issue 40 (bench/lib/issue40.mjs), `-- explorer-memory` only the
 * explorer's memory at the end of long lists; each leaves LATEST.md as it was.
 */
const only = process.argv.slice(2);

await main();
