// The count baseline: the least a Node program can do to count a list by a field's values in every
// unit, one request per cell — read the units (page by page), then ask each (unit, value) and each
// unit's total for one record and read its total_count, with a fixed number of requests in flight, over
// node:http's kept-alive connections. No discovery index, no checks, no formatting.
// Usage: node bench/count-loop.mjs <base-url> <units-path> <list-path> <field> <concurrency> <value>...
//        (token in DPX_TOKEN; prints {"requests": n, "cells": n, "sum": n, "totals": n}: sum of the
//        value cells, sum of the units' totals)
import { closeAgent, getJson } from './lib/http-get.mjs';

const [baseUrl, unitsPath, listPath, field, concurrencyText, ...values] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.DPX_TOKEN}`, accept: 'application/json' };
const OU_HEADER = 'x-service-organizationalunit-context';
let requests = 0;

function get(url, extra = {}) {
  requests += 1;
  return getJson(url, { ...headers, ...extra });
}

const units = [];
for (let url = `${baseUrl}${unitsPath}?limit=100`; url; ) {
  const page = await get(url);
  units.push(...page._embedded.items.map((unit) => unit.id));
  const next = page._links?.next?.href;
  url = next ? new URL(next, url).toString() : undefined;
}

// A value of undefined is the unit's total: asked for itself, as dpx does, never added up.
const cells = units.flatMap((unit) => [undefined, ...values].map((value) => ({ unit, value })));
let at = 0;
let sum = 0;
let totals = 0;
async function worker() {
  while (at < cells.length) {
    const { unit, value } = cells[at++];
    const filter =
      value === undefined ? '' : `&filter=${encodeURIComponent(JSON.stringify({ [field]: { $eq: value } }))}`;
    const page = await get(`${baseUrl}${listPath}?limit=1${filter}`, { [OU_HEADER]: unit });
    if (value === undefined) totals += page.total_count;
    else sum += page.total_count;
  }
}
await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
closeAgent();
process.stdout.write(`${JSON.stringify({ requests, cells: cells.length, sum, totals })}\n`);
