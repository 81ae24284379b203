// Which recorded command of a case a command line asks again, offline: the case's page (one per command)
// whose command is the same — the same command word, positionals and the options that shape requests,
// whatever the output format or the global flags. Its unit is the one the command answers in by
// default ("each command answers in the unit it was recorded in").

import type { RecordedPage, RecordedTrail } from '../api/case/har.js';
import type { Settings } from '../config/settings.js';
import { parseCommandLine, type ParsedArgs } from './args.js';
import { COMMANDS } from './commands/registry.js';

/** Options that change what is asked, not how it is shown: those each command's spec names. */
const REQUEST_OPTIONS = [...new Set(Object.values(COMMANDS).flatMap((command) => command.asks ?? []))];

/** The command as far as the requests it sends go: `list tasks {"filter":…,"page-size":"3"}`. */
export function commandKey(args: Pick<ParsedArgs, 'command' | 'positionals' | 'options'>, withOptions = true): string {
  const options = withOptions
    ? Object.fromEntries(
        REQUEST_OPTIONS.filter((name) => args.options[name] !== undefined).map((name) => [name, args.options[name]]),
      )
    : {};
  return JSON.stringify([args.command, args.positionals, options]);
}

/**
 * The recorded pages of the same command, oldest first; else those of the same command word and
 * positionals (another page size, another filter), so the answer says what the case holds there.
 */
export function recordedPagesFor(trail: RecordedTrail, args: ParsedArgs): RecordedPage[] {
  const recorded = trail.pages.flatMap((page) => {
    if (!page.argv) return [];
    try {
      return [{ page, args: parseCommandLine(page.argv) }];
    } catch {
      return [];
    }
  });
  const same = (withOptions: boolean) =>
    recorded
      .filter((each) => commandKey(each.args, withOptions) === commandKey(args, withOptions))
      .map((each) => each.page);
  const exact = same(true);
  return exact.length > 0 ? exact : same(false);
}

/**
 * Offline, a command answers as it was recorded: in the unit, against the control plane and at the time
 * of the case's page for it — the page named by id (`pageId`, as `dpx report` asks each section), else
 * the latest page for the same command. A unit given on the command line is kept, unless the page is
 * named: its recorded unit is then the one the given name or path meant.
 */
export async function answerAsRecorded(
  settings: Settings,
  args: ParsedArgs,
  options: { pageId?: string | undefined; ouGiven: boolean },
): Promise<void> {
  const offline = settings.offline!;
  const { withApi } = await import('../api/case/har.js');
  const named =
    options.pageId === undefined ? undefined : offline.trail.pages.find((each) => each.id === options.pageId);
  if (named === undefined && options.ouGiven) return;
  const pages = named ? [named] : recordedPagesFor(offline.trail, args);
  const page = pages.at(-1);
  if (!page) return;
  const units = [...new Set(pages.map((each) => each.unit ?? 'no unit'))];
  if (units.length > 1)
    offline.trail.warnings.push(
      `${offline.file} holds this command in ${units.length} units (${units.join(', ')}): it answers as the latest, in ${page.unit ?? 'no unit'}; --ou picks another`,
    );
  if (
    page.baseUrl !== undefined &&
    page.baseUrl !== offline.trail.baseUrl &&
    offline.trail.apis.some((api) => api.baseUrl === page.baseUrl)
  ) {
    settings.offline = {
      ...offline,
      trail: withApi(
        offline.trail,
        page.baseUrl,
        settings.ouHeader === undefined ? {} : { ouHeader: settings.ouHeader },
      ),
    };
    settings.baseUrl = page.baseUrl;
    settings.vendor = settings.offline.trail.vendor;
  }
  settings.now = new Date(page.startedAt);
  if (page.unit === undefined) delete settings.ou;
  else settings.ou = page.unit;
}
