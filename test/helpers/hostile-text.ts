// A small control plane whose text attacks the terminal: record keys and values, unit names, a resource's
// name, a status word and a proxy's text/plain error page carry ESC and BEL sequences (the window title,
// OSC 52 writing the clipboard), an 8-bit C1 CSI, DEL and bidi overrides; a csv cell starts a formula; a
// resource is named `x$(touch pwned)` for the shell. Built on servers.ts; every test of "server text
// never drives the terminal" talks to it over HTTP.
import { sendJson, startServer, type Handler, type TestServer } from './servers.js';

/** OSC 0: sets the window title. */
export const TITLE = '\x1b]0;pwned\x07';
/** OSC 52: writes "pwned" to the clipboard. */
export const CLIPBOARD = '\x1b]52;c;cHduZWQ=\x07';
/** The 8-bit CSI (U+009B) and DEL. */
export const C1 = '\x9b31m\x7f';
/** A right-to-left override and an isolate: "exe.txt" reads as "txt.exe". */
export const BIDI = '\u202etxt.exe\u2066x\u2069\u202c';
export const HOSTILE = `${TITLE}${CLIPBOARD}${C1}${BIDI}`;

/** What must never reach a terminal from this server. */
export const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const VENDOR = 'hostile';
export const SHELL_RESOURCE = 'x$(touch pwned)';
export const TITLED_RESOURCE = `notes${TITLE}`;
export const UNIT_ROOT = '11111111-1111-4111-8111-111111111111';
export const UNIT_CHILD = '22222222-2222-4222-8222-222222222222';
export const ITEM_KEY = `key${HOSTILE}`;

const list = (path: string) => ({ href: `${path}{?limit,start,filter}`, type: 'get', templated: true });
const read = (path: string, variable: string) => ({ href: `${path}/{${variable}}`, type: 'get', templated: true });

const INDEX = {
  items: {
    supported_versions: ['v1', 'v2'],
    v1: { list_items: list('/items'), get_item: read('/items', 'item_id') },
    v2: { list_items: list('/items'), get_item: read('/items', 'item_id') },
  },
  'organizational-units': {
    supported_versions: ['v1'],
    v1: { list_organizational_units: list('/organizational-units') },
  },
  broken: { supported_versions: ['v1'], v1: { list_broken: list('/broken') } },
  [SHELL_RESOURCE]: { supported_versions: ['v1'], v1: { list_evil: list('/evil') } },
  [TITLED_RESOURCE]: { supported_versions: ['v1'], v1: { [`list_notes${TITLE}`]: list('/notes') } },
};

function items(version: string): Record<string, unknown>[] {
  return [
    {
      id: 'i-1',
      name: `Item one${HOSTILE}`,
      status: `ok${TITLE}`,
      [ITEM_KEY]: `value${HOSTILE}`,
      formula: '=HYPERLINK("http://evil.example","click")',
      delta: -5,
      note: version === 'v2' ? `changed${CLIPBOARD}` : 'same',
      _links: { self: { href: '/items/i-1' }, sibling: { href: '/items/i-2' } },
    },
    {
      id: 'i-2',
      name: `Item two${BIDI}`,
      status: 'failed',
      [ITEM_KEY]: 'plain',
      formula: '@SUM(1)',
      delta: 3,
      note: 'same',
      _links: { self: { href: '/items/i-2' } },
    },
  ];
}

const UNITS = [
  { id: UNIT_ROOT, name: `Global${TITLE}`, _links: { self: { href: `/organizational-units/${UNIT_ROOT}` } } },
  {
    id: UNIT_CHILD,
    name: `EMEA${CLIPBOARD}${BIDI}`,
    parent_id: UNIT_ROOT,
    _links: { self: { href: `/organizational-units/${UNIT_CHILD}` } },
  },
];

/** `{"field": {"$eq": value}}` or `{"field": value}`: true when the record matches. */
function matches(record: Record<string, unknown>, filter: string | null): boolean {
  if (filter === null) return true;
  const parsed = JSON.parse(filter) as Record<string, unknown>;
  return Object.entries(parsed).every(([field, condition]) => {
    const wanted =
      condition !== null && typeof condition === 'object' && '$eq' in condition
        ? (condition as { $eq: unknown }).$eq
        : condition;
    return record[field] === wanted;
  });
}

export function hostileText(): Handler {
  return (request, response, server) => {
    const url = new URL(request.url, server.baseUrl);
    const version = /=(v\d+)\+json/.exec(String(request.headers['accept'] ?? ''))?.[1] ?? 'v2';
    const type = (resource: string) => ({ 'content-type': `application/api.${VENDOR}.${resource}=${version}+json` });
    const page = (resource: string, records: Record<string, unknown>[]) => {
      const chosen = records.filter((record) => matches(record, url.searchParams.get('filter')));
      const limit = Number(url.searchParams.get('limit') ?? '50');
      const shown = chosen.slice(0, limit);
      sendJson(
        response,
        200,
        {
          _embedded: { items: shown },
          _links: { self: { href: `${url.pathname}${url.search}` } },
          current_count: shown.length,
          total_count: chosen.length,
        },
        type(resource),
      );
    };
    switch (url.pathname) {
      case '/':
        return sendJson(response, 200, INDEX, { 'content-type': `application/api.${VENDOR}.*=v1+json` });
      case '/items':
        return page('items', items(version));
      case '/organizational-units':
        return page('organizational-units', UNITS);
      case '/evil':
        return page('evil', [{ id: 'e-1', name: 'evil' }]);
      case '/notes':
        return page('notes', [{ id: 'n-1', name: `note${HOSTILE}` }]);
      case '/broken':
        // A proxy's error page: plain text, not the errors envelope.
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`Bad gateway${HOSTILE} upstream said${TITLE} no\n`);
        return;
    }
    const item = /^\/items\/([^/]+)$/.exec(url.pathname)?.[1];
    const record = items(version).find((candidate) => candidate['id'] === item);
    if (record) return sendJson(response, 200, record, type('items'));
    return sendJson(response, 404, {
      errors: [{ error_code: `not_found${TITLE}`, error_message: `nothing at ${url.pathname}${CLIPBOARD}` }],
    });
  };
}

export function startHostileText(): Promise<TestServer> {
  return startServer(hostileText());
}
