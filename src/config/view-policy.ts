// What a saved view may hold: one command that reads, and the options that shape its question. A view is
// meant to be handed to a colleague, so it must never carry what moves a token (base URLs, token sources,
// --trust-origin, proxies, CA files), what changes state (--allow-writes, --yes, --confirm-id, a body, a
// write), what writes files (--trail), a profile or config command, or another view. This is an
// allow-list: a command or an option not named here is refused, so an option added to dpx later stays out
// of views until it is put here. Checked when a view is saved, when it is loaded and when it is run.
import { UsageError } from '../api/errors.js';

/** Options every view command may hold: the output format and the control plane's unit and profile, by name. */
const EVERYWHERE = ['output', 'profile', 'ou'] as const;
const WINDOW = ['since', 'until', 'time-field'] as const;
/** The output's shape, for the formats that write csv. */
const CSV = ['csv-crlf'] as const;

/** Each command a view may hold, and the options (long names) it may hold with it. */
export const VIEW_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  resources: [...EVERYWHERE],
  operations: [...EVERYWHERE, 'version'],
  list: [
    ...EVERYWHERE,
    ...WINDOW,
    ...CSV,
    'version',
    'op',
    'filter',
    'page-size',
    'page',
    'all',
    'max-items',
    'var',
    'fields',
    'profiles',
    'group-by',
  ],
  count: [
    ...EVERYWHERE,
    ...WINDOW,
    ...CSV,
    'version',
    'filter',
    'by',
    'values',
    'profiles',
    'depth',
    'sort',
    'nonzero',
    'plan',
    'explain',
  ],
  // `call` of a read only: the operation's method is known from the index, so it is checked when run.
  call: [...EVERYWHERE, ...CSV, 'version', 'var', 'query', 'fields', 'include'],
  xray: [...EVERYWHERE, 'depth', 'no-inbound', 'verbose'],
  diff: [...EVERYWHERE, 'versions', 'profiles', 'exit-code'],
};

/** The one method a view's `call` may send: a read by the index's own word for it. */
const VIEW_METHOD = 'GET';

/** A parsed view: its command word and the long names of the options it gives. */
export interface ViewCommand {
  command: string;
  options: readonly string[];
}

/**
 * The refusal of a view's command line, naming each option (or the command) a view may not hold; undefined
 * when the view is a question and nothing more.
 */
export function viewRefusal(view: ViewCommand, name?: string): UsageError | undefined {
  const allowed = VIEW_COMMANDS[view.command];
  const which = name === undefined ? 'a view' : `the view ${name}`;
  if (allowed === undefined) {
    return new UsageError(
      `a view of ${view.command === 'explorer' ? 'the explorer' : `\`dpx ${view.command}\``} is not kept: ${which} holds one read command`,
      `a view may hold: ${Object.keys(VIEW_COMMANDS)
        .map((command) => `dpx ${command}`)
        .join(', ')} (a call only of a GET operation)`,
    );
  }
  const refused = [...new Set(view.options)].filter((option) => !allowed.includes(option));
  if (refused.length === 0) return undefined;
  return new UsageError(
    `${which} may not hold ${refused.map((option) => `--${option}`).join(', ')}: a view holds a question, never what reaches a control plane, moves a token or changes data`,
    `a view of dpx ${view.command} may hold ${allowed.map((option) => `--${option}`).join(' ')}; whoever runs it adds the rest: dpx view run NAME --profile …`,
  );
}

/** Throws the refusal of a view's command line, if it has one. */
export function checkView(view: ViewCommand, name?: string): void {
  const refusal = viewRefusal(view, name);
  if (refusal) throw refusal;
}

/** A view's `call` of an operation that is not a read is refused before anything of it is sent. */
export function checkViewOperation(method: string, operation: string, view: string): void {
  if (method.toUpperCase() === VIEW_METHOD) return;
  throw new UsageError(
    `the view ${view} calls ${operation}, a ${method.toUpperCase()}: a view only reads, so it was not sent`,
    `a view may call only a GET operation; run the operation yourself: dpx call … ${operation}`,
  );
}
