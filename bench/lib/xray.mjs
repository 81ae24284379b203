// The x-ray's first level, measured from its trail: when the record's answer arrived, when the records
// its links reach and the inbound queries answered, and how many requests went out against the bound.
// The baseline (bench/xray-baseline.mjs) sends the same requests knowing every URL in advance: the
// record and the inbound queries at once, the linked records the moment the record is in — the first
// level one round trip after the record, on the same server. dpx is measured against it, first request
// to last first-level answer.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, runNode } from './measure.mjs';

const baselineScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'xray-baseline.mjs');

const RUNS = 9;

function spans(trail) {
  return JSON.parse(readFileSync(trail, 'utf8')).log.entries.map((entry) => {
    const start = Date.parse(entry.startedDateTime);
    const accept =
      entry.request.headers.find((header) => header.name.toLowerCase() === 'accept')?.value ?? 'application/json';
    return {
      url: entry.request.url,
      accept,
      status: entry.response.status,
      start,
      end: start + entry.time,
      time: entry.time,
    };
  });
}

/** The earliest request to each list (by path). */
function firstPerList(exchanges) {
  const first = new Map();
  for (const exchange of exchanges) {
    const path = new URL(exchange.url).pathname;
    if (!first.has(path) || first.get(path).start > exchange.start) first.set(path, exchange);
  }
  return [...first.values()];
}

/** One `dpx xray … --output json --trail`, read back: the root's answer, the first level's answers, the counts. */
async function once(bundle, env, resource, id, trail) {
  const run = await runNode([bundle, 'xray', resource, id, '--output', 'json', '--trail', trail], env, {
    keepStdout: true,
  });
  if (run.code !== 0)
    throw new Error(`dpx xray exited with ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const result = JSON.parse(run.stdout);
  const exchanges = spans(trail).filter((exchange) => new URL(exchange.url).pathname !== '/');
  const root = exchanges.find((exchange) => exchange.url === result.root);
  const linked = new Set(
    result.edges.filter((edge) => edge.from === result.root && edge.direction === 'out').map((edge) => edge.to),
  );
  const levelOne = exchanges.filter((exchange) => linked.has(exchange.url));
  const inbound = exchanges.filter((exchange) => new URL(exchange.url).searchParams.has('filter'));
  const last = (list) => Math.max(...list.map((exchange) => exchange.end));
  const request = ({ url, accept }) => ({ url, accept });
  // The baseline knows every URL in advance, so it asks each list at the page size it takes at once: a
  // probe the server refused (dpx's first query to a list it had not learned) is dpx's cost alone.
  const answered = (exchange) => exchange.status >= 200 && exchange.status < 300;
  return {
    spec: { root: request(root), linked: levelOne.map(request), inbound: inbound.filter(answered).map(request) },
    ms: run.ms,
    requests: result.requests,
    trailRequests: exchanges.length,
    nodes: result.nodes.length,
    recordMs: root.time,
    firstLevelMs: Math.max(last(levelOne), last(inbound)) - Math.min(...exchanges.map((exchange) => exchange.start)),
    firstLevelRequests: levelOne.length + inbound.length,
    // One wave: every linked record was asked for before any of them had answered.
    oneWave:
      Math.max(...levelOne.map((exchange) => exchange.start)) <= Math.min(...levelOne.map((exchange) => exchange.end)),
    // Each list's first query (a refused probe's second ask waits for the refusal, by nature).
    inboundWithRecord: Math.max(...firstPerList(inbound).map((exchange) => exchange.start)) <= root.end,
  };
}

/** Interleaved with dpx's runs (one warm-up each), so that both meet the same machine and server. */
export async function xrayFigures(bundle, env, scratch, target) {
  const runs = [];
  const baselines = [];
  const spec = join(scratch, `xray-${target.resource}.json`);
  for (let i = -1; i < RUNS; i += 1) {
    const run = await once(bundle, env, target.resource, target.id, join(scratch, `xray-${target.resource}-${i}.har`));
    writeFileSync(spec, JSON.stringify(run.spec));
    const baseline = await runNode([baselineScript, spec], env, { keepStdout: true });
    if (baseline.code !== 0)
      throw new Error(`the x-ray baseline exited with ${baseline.code}: ${baseline.stderr.trim()}`);
    if (i >= 0) {
      runs.push(run);
      baselines.push(JSON.parse(baseline.stdout));
    }
  }
  const pick = (key) => median(runs.map((run) => run[key]));
  const baselineFirstLevelMs = median(baselines.map((baseline) => baseline.firstLevelMs));
  return {
    label: target.label,
    runs: RUNS,
    wallMs: pick('ms'),
    recordMs: pick('recordMs'),
    firstLevelMs: pick('firstLevelMs'),
    baselineRecordMs: median(baselines.map((baseline) => baseline.recordMs)),
    baselineFirstLevelMs,
    ratio: pick('firstLevelMs') / baselineFirstLevelMs,
    firstLevelRequests: runs[0].firstLevelRequests,
    requests: runs[0].requests,
    nodes: runs[0].nodes,
    requestsMatchTrail: runs.every((run) => run.requests === run.trailRequests),
    oneWave: runs.every((run) => run.oneWave),
    inboundWithRecord: runs.every((run) => run.inboundWithRecord),
  };
}
