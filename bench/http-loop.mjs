// The export baseline: the least a Node program can do to export a list — node:http over a kept-alive
// connection, the first page, each item printed as a JSON line, `next` followed until there is none. No
// discovery, no checks, no formatting.
// Usage: node bench/http-loop.mjs <first-page-url>   (token in DPX_TOKEN)
import { closeAgent, getJson } from './lib/http-get.mjs';

const [first] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.DPX_TOKEN}`, accept: 'application/json' };
for (let url = first; url; ) {
  const page = await getJson(url, headers);
  const lines = page._embedded.items.map((item) => JSON.stringify(item)).join('\n');
  if (lines && !process.stdout.write(`${lines}\n`))
    await new Promise((resolve) => process.stdout.once('drain', resolve));
  const next = page._links?.next?.href;
  url = next ? new URL(next, url).toString() : undefined;
}
closeAgent();
