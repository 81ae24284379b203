// The export baseline: the least a Node program can do to export a list — fetch the first page, print
// each item as a JSON line, follow `next` until there is none. No discovery, no checks, no formatting.
// Usage: node bench/fetch-loop.mjs <first-page-url>   (token in DPX_TOKEN)
const [first] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.DPX_TOKEN}`, accept: 'application/json' };
let url = first;
while (url) {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  const page = await response.json();
  const lines = page._embedded.items.map((item) => JSON.stringify(item)).join('\n');
  if (lines && !process.stdout.write(`${lines}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  const next = page._links?.next?.href;
  url = next ? new URL(next, url).toString() : undefined;
}
