// The x-ray's first-level baseline: the least a Node program can do when it already knows every URL —
// ask for the record and then the inbound queries at once, and for the linked records the moment the
// record is in; no discovery, no reading of links, no checks. Prints, in ms as JSON, the record's round
// trip and the time from the first request to the last first-level answer.
// Usage: node bench/xray-baseline.mjs <spec.json>   (token in DPX_TOKEN; spec: { root, linked, inbound },
// each request { url, accept })
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const get = async ({ url, accept }) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${process.env.DPX_TOKEN}`, accept } });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  await response.json();
  return performance.now();
};
// dpx reads the index before its x-ray starts; so does the baseline, so both begin with fetch loaded and a connection open.
await get({ url: new URL('/', spec.root.url).toString(), accept: 'application/json' });
const started = performance.now();
const record = get(spec.root);
const inbound = Promise.all(spec.inbound.map(get));
const recordAt = await record;
const linked = await Promise.all(spec.linked.map(get));
const last = Math.max(...linked, ...(await inbound));
process.stdout.write(`${JSON.stringify({ recordMs: recordAt - started, firstLevelMs: last - started })}\n`);
