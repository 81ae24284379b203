// A control plane for the count planner and the merged list: a unit tree (a root, its tenants, and a
// child under each when asked) and a task list whose records name their unit in `organizational_unit_id`.
// Its unit-scoped counts are always true (the OU header scopes by each record's real unit), but the
// records of one tenant may be tagged with another tenant's id, so that a scan of the root's list counts
// them in the wrong place; it may leave out every count, so that nothing can be verified; and it may
// leave some units' records out of the root's list (the list without a unit). Pages of at most 100
// records: a larger page is refused with a 400 that names the range.
import { parseOperatorFilter } from './operator-filter.js';
import { sendJson, startServer, type TestServer } from './servers.js';

export const VENDOR = 'dpm';
const OU_HEADER = `x-${VENDOR}-organizationalunit-context`;
const STATUSES = ['completed', 'failed', 'running', 'aborted'];
const LARGEST_PAGE = 100;

export interface TaggedUnit {
  id: string;
  name: string;
  parent_id?: string;
}

export interface TaggedPlaneOptions {
  tenants: number;
  /** A child unit under each tenant (default true). */
  children?: boolean;
  records: number;
  /** The index of the tenant whose own records carry the next tenant's id instead of its own. */
  mislabelled?: number;
  /** Lists carry no total_count nor total_pages_count. */
  noCounts?: boolean;
  /**
   * Units whose own records a request without the OU header leaves out (their children's stay): what
   * the root's list does not hold. A request in the unit's context, or an ancestor's, sees them.
   */
  hidden?: readonly string[];
}

export interface TaggedPlane extends TestServer {
  units: TaggedUnit[];
  /** Requests to the task list. */
  taskRequests(): number;
}

const list = (path: string) => ({ href: `${path}{?limit,start,filter}`, type: 'get', templated: true });
const INDEX = {
  'organizational-units': {
    supported_versions: ['v1'],
    v1: { list_organizational_units: list('/organizational-units') },
  },
  tasks: { supported_versions: ['v1'], v1: { list_tasks: list('/tasks') } },
};

export async function startTaggedPlane(options: TaggedPlaneOptions): Promise<TaggedPlane> {
  const units: TaggedUnit[] = [{ id: 'u-root', name: 'Global' }];
  for (let t = 0; t < options.tenants; t++) {
    units.push({ id: `u-${t}`, name: `Tenant ${t}`, parent_id: 'u-root' });
    if (options.children !== false) units.push({ id: `u-${t}-a`, name: `Tenant ${t} A`, parent_id: `u-${t}` });
  }
  const parentOf = new Map(units.map((unit) => [unit.id, unit.parent_id]));
  const within = (unit: string, scope: string): boolean => {
    for (let at: string | undefined = unit; at !== undefined; at = parentOf.get(at)) if (at === scope) return true;
    return false;
  };
  const wrongTag =
    options.mislabelled === undefined
      ? undefined
      : { from: `u-${options.mislabelled}`, to: `u-${(options.mislabelled + 1) % options.tenants}` };
  const tasks = Array.from({ length: options.records }, (_, index) => {
    const unit = units[index % units.length]!.id;
    const shown = unit === wrongTag?.from ? wrongTag.to : unit;
    return {
      real: unit,
      record: {
        id: `t-${index}`,
        status: STATUSES[Math.floor(index / units.length) % STATUSES.length],
        organizational_unit_id: shown,
      },
    };
  });
  const hidden = new Set(options.hidden ?? []);
  let taskRequests = 0;

  const server = await startServer((request, response, self) => {
    const url = new URL(request.url, self.baseUrl);
    if (url.pathname === '/')
      return sendJson(response, 200, INDEX, { 'content-type': `application/api.${VENDOR}.*=v1+json` });
    const name = url.pathname.slice(1);
    if (name !== 'tasks' && name !== 'organizational-units')
      return sendJson(response, 404, { errors: [{ error_code: 40400, error_message: `nothing at ${url.pathname}` }] });
    const limit = Number(url.searchParams.get('limit') ?? '10');
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= LARGEST_PAGE)) {
      return sendJson(response, 400, {
        errors: [{ error_code: 40002, error_message: `limit must be between 1 and ${LARGEST_PAGE}` }],
      });
    }
    const filter = parseOperatorFilter(url.searchParams.get('filter'), ['status', 'organizational_unit_id']);
    if ('error' in filter)
      return sendJson(response, 400, { errors: [{ error_code: filter.code, error_message: filter.error }] });
    let records: Record<string, unknown>[];
    if (name === 'tasks') {
      taskRequests++;
      const scope = request.headers[OU_HEADER];
      records = tasks
        .filter(
          ({ real, record }) =>
            (typeof scope !== 'string' ? !hidden.has(real) : within(real, scope)) && filter.test(record),
        )
        .map(({ record }) => record);
    } else records = units.map((unit) => ({ ...unit }));
    const page = Math.max(1, Number(url.searchParams.get('start') ?? '1'));
    const pages = Math.max(1, Math.ceil(records.length / limit));
    const href = (number: number) => {
      const query = new URLSearchParams(url.searchParams);
      query.set('limit', String(limit));
      query.set('start', String(number));
      return `/${name}?${query.toString()}`;
    };
    const links: Record<string, unknown> = {
      self: { href: href(page) },
      first: { href: href(1) },
      last: { href: href(pages) },
    };
    if (page < pages) links['next'] = { href: href(page + 1) };
    const items = records.slice((page - 1) * limit, page * limit);
    const counts = options.noCounts ? {} : { total_count: records.length, total_pages_count: pages };
    return sendJson(
      response,
      200,
      { _embedded: { items }, _links: links, current_count: items.length, ...counts },
      { 'content-type': `application/api.${VENDOR}.${name}=v1+json` },
    );
  });
  return { ...server, units, taskRequests: () => taskRequests };
}
