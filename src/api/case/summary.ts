// What a case holds, command by command, for `dpx case`: when each ran, in which unit and against which
// control plane, how many requests it sent and how many records came back. Bodies are read one at a
// time from the case (a case may be far larger than memory should hold).

import { isObject } from '../json.js';
import { isUnder } from '../urls.js';
import { commandsFromRequests } from './derived-commands.js';
import { bodyKind } from './diff.js';
import { recordedUnit, type RecordedExchange, type RecordedPage, type RecordedTrail } from './har.js';

export interface CommandSummary {
  /** The page's id; undefined for requests recorded outside any page. */
  page?: string;
  /** dpx: the command line (secrets masked); a browser: the page's title. */
  title: string;
  argv?: string[];
  /** A page without a command line (a browser's): the dpx commands its requests amount to. */
  derived?: string[][];
  startedAt: string;
  endedAt?: string;
  profile?: string;
  origin?: string;
  baseUrl?: string;
  /** Every origin its requests went to, its own first: several for a command that asked several profiles. */
  origins: string[];
  /** The unit the command ran in (dpx), else the one unit its requests were asked in. */
  unit?: string;
  /** Every unit its requests were asked in. */
  units: string[];
  requests: number;
  /** Records in its answers: the items of each list page, one per record read. */
  records: number;
}

export interface CaseSummary {
  source: string;
  creator: string;
  baseUrl: string;
  commands: CommandSummary[];
  requests: number;
  records: number;
}

export async function summariseCase(trail: RecordedTrail): Promise<CaseSummary> {
  const byPage = new Map<string | undefined, RecordedExchange[]>();
  for (const exchange of trail.exchanges) {
    const known = exchange.pageref !== undefined && trail.pages.some((page) => page.id === exchange.pageref);
    const key = known ? exchange.pageref : undefined;
    const list = byPage.get(key) ?? [];
    list.push(exchange);
    byPage.set(key, list);
  }
  const commands: CommandSummary[] = [];
  for (const page of trail.pages) commands.push(await summarise(trail, page, byPage.get(page.id) ?? []));
  const loose = byPage.get(undefined);
  if (loose) commands.push(await summarise(trail, undefined, loose));
  commands.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return {
    source: trail.source,
    creator: trail.creator,
    baseUrl: trail.baseUrl,
    commands,
    requests: commands.reduce((sum, command) => sum + command.requests, 0),
    records: commands.reduce((sum, command) => sum + command.records, 0),
  };
}

async function summarise(
  trail: RecordedTrail,
  page: RecordedPage | undefined,
  exchanges: RecordedExchange[],
): Promise<CommandSummary> {
  const units = [
    ...new Set(
      exchanges.map((exchange) => recordedUnit(trail, exchange)).filter((unit): unit is string => unit !== undefined),
    ),
  ];
  let records = 0;
  for (const exchange of exchanges) records += await recordsIn(trail, exchange);
  const baseUrl =
    page?.baseUrl ??
    (exchanges.length > 0 ? trail.apis.find((api) => exchanges[0]!.url.startsWith(api.baseUrl))?.baseUrl : undefined);
  const unit = page?.argv !== undefined ? page.unit : units.length === 1 ? units[0] : undefined;
  const derived = page?.argv === undefined ? commandsFromRequests(trail, exchanges) : [];
  const asked = trail.apis
    .filter((api) => exchanges.some((exchange) => isUnder(exchange.url, api.baseUrl)))
    .map((api) => originOf(api.baseUrl));
  const origins = [...new Set([...(baseUrl ? [originOf(baseUrl)] : []), ...asked])];
  return {
    ...(page ? { page: page.id } : {}),
    title: page?.title ?? '(requests recorded outside any page)',
    ...(page?.argv ? { argv: page.argv } : {}),
    ...(derived.length > 0 ? { derived } : {}),
    startedAt: page?.startedAt || exchanges[0]?.startedAt || '',
    ...(page?.endedAt ? { endedAt: page.endedAt } : {}),
    ...(page?.profile ? { profile: page.profile } : {}),
    ...(baseUrl ? { origin: originOf(baseUrl), baseUrl } : {}),
    ...(unit ? { unit } : {}),
    origins,
    units,
    requests: exchanges.length,
    records,
  };
}

async function recordsIn(trail: RecordedTrail, exchange: RecordedExchange): Promise<number> {
  if (exchange.method !== 'GET' || exchange.status < 200 || exchange.status >= 300 || !exchange.hasText) return 0;
  let body: unknown;
  try {
    body = JSON.parse((await trail.text(exchange)) ?? '');
  } catch {
    return 0;
  }
  const kind = bodyKind(body);
  if (kind === 'record') return 1;
  if (kind !== 'list') return 0;
  const items = isObject(body) && isObject(body['_embedded']) ? body['_embedded']['items'] : undefined;
  return Array.isArray(items) ? items.length : 0;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
