// `dpx xray <resource> <id>`: everything connected to one record, both ways, and its history, printed
// once every answer is in. Which requests it cost goes to stderr with --verbose, with everything the
// x-ray left out and why (a link it could not fill, a filter the server refused).

import { UsageError } from '../../../api/errors.js';
import { DEFAULT_DEPTH, runXray, type XrayEvent, type XrayResult } from '../../../api/xray/xray.js';
import { filterCache } from '../../../config/cache.js';
import { defaultCacheDir } from '../../../config/cache-dir.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { PARTIAL_ANSWER } from '../../exit-codes.js';
import { nonNegativeInteger } from '../../options/values.js';
import { xrayDocument, xrayDot, xrayTree } from '../../format/xray.js';
import { colourWanted, jsonText, outputFormat } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

/** Deeper than this, an x-ray is a crawl of the whole control plane rather than a look around a record. */
const MAX_DEPTH = 10;

export async function run(
  ctx: CommandScope,
  { positionals, options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [resource, id, ...extra] = positionals;
  if (resource === undefined || id === undefined || extra.length > 0) {
    throw new UsageError(
      'dpx xray takes a resource and the id of one of its records',
      'e.g. dpx xray tasks <id>; dpx list <resource> shows ids',
    );
  }
  const format = outputFormat(options['output'], spec.formats);
  const depth = typeof options['depth'] === 'string' ? nonNegativeInteger('--depth', options['depth']) : DEFAULT_DEPTH;
  if (depth > MAX_DEPTH)
    throw new UsageError(
      `--depth ${depth} is deeper than ${MAX_DEPTH}`,
      `give --depth 0 to ${MAX_DEPTH}; each level costs a request per record it reaches`,
    );
  const inbound = options['no-inbound'] !== true;

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);
  const progress = new XrayProgress();
  // What the lists taught about filters is kept per control plane; offline, the trail answers and nothing is learned.
  const filterStore = ctx.settings.offline ? undefined : filterCache(defaultCacheDir(ctx.io.env));
  let result: XrayResult;
  try {
    result = await runXray(
      ctx.session(),
      { resource, id },
      {
        depth,
        inbound,
        signal: stop.signal,
        onEvent: (event) => progress.see(event),
        ...(filterStore ? { filterStore } : {}),
        ...(ctx.settings.pageSize === undefined ? {} : { inboundPageSize: ctx.settings.pageSize }),
      },
    );
  } catch (error) {
    if (ctx.io.signal?.aborted) {
      ctx.reportInterruption(progress.summary());
      return 0;
    }
    throw error;
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
  // The record cap cut the walk: the tree says where, and the answer is a partial one.
  if (result.cut) {
    ctx.note(
      `error: the x-ray stopped at ${result.cut.maxNodes} records: ${result.cut.linksNotFollowed} ${result.cut.linksNotFollowed === 1 ? 'link was' : 'links were'} not followed (a partial answer); --depth 1 looks at less`,
    );
    return PARTIAL_ANSWER;
  }
  return 0;
}

/** What an x-ray had done when it was interrupted: records read and not, lists answered. */
class XrayProgress {
  private readonly states = new Map<string, string>();
  private inbound = 0;

  see(event: XrayEvent): void {
    if (event.kind === 'node') this.states.set(event.node.key, event.node.state);
    else if (event.kind === 'inbound') this.inbound += 1;
  }

  summary(): string {
    const states = [...this.states.values()];
    const read = states.filter((state) => state === 'loaded' || state === 'failed').length;
    const pending = states.filter((state) => state === 'pending').length;
    return `the x-ray had read ${read} ${read === 1 ? 'record' : 'records'} and had answers from ${this.inbound} ${this.inbound === 1 ? 'list' : 'lists'} that may refer to it; ${pending} ${pending === 1 ? 'record was' : 'records were'} not read, the lists not yet asked were not asked, and nothing was printed`;
  }
}

function costLine(result: XrayResult): string {
  const { records, fieldPages, inboundQueries } = result.cost;
  return `requests: ${result.requests} = ${records} ${records === 1 ? 'record' : 'records'} read + ${fieldPages} ${fieldPages === 1 ? 'list' : 'lists'} read for their fields + ${inboundQueries} inbound ${inboundQueries === 1 ? 'query' : 'queries'} (the discovery index is read once per session besides)`;
}
