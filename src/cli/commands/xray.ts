// `dpx xray <resource> <id>`: everything connected to one record, both ways, and its history, printed
// once every answer is in. Which requests it cost goes to stderr with --verbose, with everything the
// x-ray left out and why (a link it could not fill, a filter the server refused).

import { UsageError } from '../../api/errors.js';
import { DEFAULT_DEPTH, runXray, type XrayResult } from '../../api/xray/xray.js';
import type { CommandContext } from '../context.js';
import { nonNegativeInteger } from '../args.js';
import { xrayDocument, xrayDot, xrayTree } from '../format/xray.js';
import { colourWanted, jsonText, OUTPUT_FORMATS, outputFormat } from './output.js';

/** Deeper than this, an x-ray is a crawl of the whole control plane rather than a look around a record. */
const MAX_DEPTH = 10;

export async function xrayCommand(ctx: CommandContext, positionals: string[], options: Record<string, unknown>): Promise<number> {
  const [resource, id, ...extra] = positionals;
  if (resource === undefined || id === undefined || extra.length > 0) {
    throw new UsageError('dpx xray takes a resource and the id of one of its records', 'e.g. dpx xray tasks <id>; dpx list <resource> shows ids');
  }
  const format = outputFormat(options['output'], OUTPUT_FORMATS.xray);
  const depth = typeof options['depth'] === 'string' ? nonNegativeInteger('--depth', options['depth']) : DEFAULT_DEPTH;
  if (depth > MAX_DEPTH) throw new UsageError(`--depth ${depth} is deeper than ${MAX_DEPTH}`, `give --depth 0 to ${MAX_DEPTH}; each level costs a request per record it reaches`);
  const inbound = options['no-inbound'] !== true;

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);
  let result: XrayResult;
  try {
    result = await runXray(ctx.session(), { resource, id }, { depth, inbound, signal: stop.signal });
  } finally {
    ctx.io.signal?.removeEventListener('abort', onAbort);
  }

  if (format === 'json') ctx.io.stdout.write(jsonText(xrayDocument(result), ctx.io));
  else if (format === 'dot') ctx.io.stdout.write(xrayDot(result));
  else ctx.io.stdout.write(xrayTree(result, { colour: colourWanted(ctx.io), depth, inbound }));
  if (options['verbose'] === true) {
    for (const note of result.notes) ctx.note(`note: ${note.text}`);
    ctx.note(costLine(result));
  }
  return 0;
}

function costLine(result: XrayResult): string {
  const { records, fieldPages, inboundQueries } = result.cost;
  return `requests: ${result.requests} = ${records} ${records === 1 ? 'record' : 'records'} read + ${fieldPages} ${fieldPages === 1 ? 'list' : 'lists'} read for their fields + ${inboundQueries} inbound ${inboundQueries === 1 ? 'query' : 'queries'} (the discovery index is read once per session besides)`;
}
