// A control plane that answers from memory: a root index naming one list, and that list's pages rendered
// once at start-up, so that an export against it measures the client and not the server (the demo filters
// and renders every page it is asked for). The envelope is the demo's: `_embedded.items`, `_links` with
// self/first/last/next, `current_count`, `total_count`, `total_pages_count`, `start`.
// Usage: node bench/fast-server.mjs <items> <page-size> <token> [lazy]
//        `lazy` renders each page when asked instead (a list of a million tasks would take 700 MB held);
//        prints `base URL http://127.0.0.1:<port>` once it listens; any other token gets a 401.
import { createServer } from 'node:http';

const RESOURCE = 'tasks';
const VENDOR = 'service';
const STATUSES = ['completed', 'completed_with_warnings', 'failed', 'in_progress', 'queued', 'aborted'];
const CATEGORIES = ['backup', 'restore', 'replication'];

const [itemsText, pageSizeText, token, mode] = process.argv.slice(2);
const itemCount = Number(itemsText);
const pageSize = Number(pageSizeText);
if (!Number.isInteger(itemCount) || !Number.isInteger(pageSize) || pageSize < 1 || !token) {
  process.stderr.write('usage: node bench/fast-server.mjs <items> <page-size> <token>\n');
  process.exit(2);
}

// The index in the shape the demo serves at `/`: each resource's versions and its operations' links.
const index = Buffer.from(
  JSON.stringify({
    [RESOURCE]: {
      supported_versions: ['v1'],
      v1: {
        [`list_${RESOURCE}`]: { href: `/${RESOURCE}{?limit,start,filter}`, type: 'get', templated: true },
        get_task: { href: `/${RESOURCE}/{task_id}`, type: 'get', templated: true },
      },
    },
  }),
);

function hex(n, width) {
  return n.toString(16).padStart(width, '0');
}

/** A task like the demo's, its fields varied by its number so that no two lines are alike. */
function task(n) {
  const id = `${hex(n, 8)}-${hex(n % 65536, 4)}-4${hex(n % 4096, 3)}-8${hex((n * 7) % 4096, 3)}-${hex((n * 2654435761) % 2 ** 48, 12)}`;
  const unit = `${hex(n % 97, 8)}-0000-4000-8000-${hex(n % 97, 12)}`;
  const created = new Date(Date.UTC(2026, 10, 23) - n * 60_000);
  const failed = n % 7 === 0;
  return {
    id,
    name: `Task ${n} – ${CATEGORIES[n % CATEGORIES.length]} of group ${n % 41}`,
    category: CATEGORIES[n % CATEGORIES.length],
    type: 'file_level_restore',
    status: failed ? 'failed' : STATUSES[n % STATUSES.length],
    progress_percentage: n % 101,
    created_timestamp: created.toISOString(),
    start_timestamp: new Date(created.getTime() + 43_000).toISOString(),
    end_timestamp: new Date(created.getTime() + 452_000).toISOString(),
    organizational_unit_id: unit,
    initiated_by: { type: 'user', email: 'ada.lovelace@demo.example' },
    protection_group_id: null,
    backup_id: null,
    restore_id: null,
    error_code: failed ? 'source_unreachable' : null,
    error_message: failed ? 'The source could not be reached within the connection timeout' : null,
    _links: { self: { href: `/${RESOURCE}/${id}` }, organizational_unit: { href: `/organizational-units/${unit}` } },
  };
}

const totalPages = Math.max(1, Math.ceil(itemCount / pageSize));
const pageHref = (page) => `/${RESOURCE}?limit=${pageSize}&start=${page}`;
function renderPage(page) {
  const items = [];
  for (let n = (page - 1) * pageSize; n < Math.min(itemCount, page * pageSize); n += 1) items.push(task(n));
  const links = { self: { href: pageHref(page) }, first: { href: pageHref(1) }, last: { href: pageHref(totalPages) } };
  if (page < totalPages) links.next = { href: pageHref(page + 1) };
  return Buffer.from(
    JSON.stringify({
      _embedded: { items },
      _links: links,
      current_count: items.length,
      total_count: itemCount,
      total_pages_count: totalPages,
      start: String(page),
    }),
  );
}
const pages = [];
if (mode !== 'lazy') for (let page = 1; page <= totalPages; page += 1) pages.push(renderPage(page));

function send(response, status, contentType, body) {
  response.writeHead(status, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
}

const server = createServer((request, response) => {
  if (request.headers.authorization !== `Bearer ${token}`) {
    send(response, 401, 'application/json', Buffer.from('{"errors":[{"code":"unauthorized","message":"bad token"}]}'));
    return;
  }
  const url = new URL(request.url, 'http://fast');
  if (url.pathname === '/') {
    send(response, 200, `application/api.${VENDOR}.*=v1+json`, index);
    return;
  }
  const limit = url.searchParams.get('limit');
  const page = Number(url.searchParams.get('start') ?? '1');
  if (
    url.pathname !== `/${RESOURCE}` ||
    (limit !== null && Number(limit) !== pageSize) ||
    !(page >= 1 && page <= totalPages)
  ) {
    send(
      response,
      404,
      'application/json',
      Buffer.from(
        `{"errors":[{"code":"not_found","message":"only /${RESOURCE}?limit=${pageSize}&start=1..${totalPages}"}]}`,
      ),
    );
    return;
  }
  send(response, 200, `application/api.${VENDOR}.${RESOURCE}=v1+json`, pages[page - 1] ?? renderPage(page));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`base URL http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
