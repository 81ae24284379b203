// The control planes a run over several (`count --profiles`, `list --profiles`) asks, one source each: the
// profiles named in the config file, the demo's regions standing for profiles with --demo, or offline the
// control planes the case recorded. A profile that cannot be opened is a failed source, not a failed run.

import { toDpxError, UsageError } from '../api/errors.js';
import type { Source } from '../api/fanout/scopes.js';
import { Session } from '../api/session/session.js';
import type { Resolved } from '../config/resolved.js';
import type { GlobalFlags, Settings } from '../config/settings.js';
import type { DemoHandle } from '../demo/server.js';

/** What choosing the sources needs of the command context (context.ts). */
export interface SourceContext {
  readonly flags: GlobalFlags;
  readonly resolved: Resolved;
  readonly demo: DemoHandle | undefined;
  readonly settings: Settings;
  readonly configPath: string;
  session(): Session;
  profileSession(name: string): Promise<Session>;
  /** A session for a further control plane whose token is masked like the main one. */
  otherSession(settings: Settings & { baseUrl: string }, label: string): Session;
  /** A session recording into the run's trail, its warnings prefixed with `profile`. */
  sessionFor(settings: Settings & { baseUrl: string }, profile?: string): Session;
}

/**
 * The control planes a run over several asks: this run's own without --profiles; else one per profile
 * named (`all`: every profile of the config file); with --demo, the demo's regions stand for profiles.
 */
export async function sourcesOf(context: SourceContext, profiles: string | undefined): Promise<Source[]> {
  if (profiles === undefined) {
    const own = context.session();
    return [
      context.settings.profile === undefined ? { session: own } : { session: own, profile: context.settings.profile },
    ];
  }
  if (context.flags.baseUrl !== undefined || context.flags.tokenFile !== undefined) {
    throw new UsageError(
      '--profiles takes each control plane from its profile: --base-url and --token-file name only one',
      'leave them out, or drop --profiles',
    );
  }
  const names = profiles
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (context.demo) return demoSources(context, context.demo, names);
  if (context.settings.offline) return await offlineSources(context, names);
  const known = context.resolved.profileNames;
  const unknown = names.filter((name) => name !== 'all' && !known.includes(name));
  // A name that is no profile is a typo, not a region that failed: nothing is asked.
  if (unknown.length > 0)
    throw new UsageError(
      `--profiles ${unknown.join(', ')}: no such profile in ${context.configPath}`,
      known.length === 0
        ? 'add one with: dpx profile add NAME --base-url URL --token-file FILE'
        : `the profiles there are: ${known.join(', ')}, or all`,
    );
  const chosen = names.includes('all') ? known : names;
  if (chosen.length === 0) {
    throw new UsageError(
      `no profiles in ${context.configPath}`,
      'add some with: dpx profile add NAME --base-url URL --token-file FILE',
    );
  }
  // One profile that cannot be opened (a token file gone, a base URL missing) is one failed row; the
  // others are still asked.
  const sources: Source[] = [];
  for (const name of chosen) {
    try {
      sources.push({ session: await context.profileSession(name), profile: name });
    } catch (error) {
      sources.push({
        session: failedProfileSession(context.resolved.profileBaseUrl(name), name),
        profile: name,
        failure: toDpxError(error),
      });
    }
  }
  return sources;
}

/** The demo's regions as if they were profiles named after them. */
function demoSources(context: SourceContext, demo: DemoHandle, names: string[]): Source[] {
  const regions = demo.regions;
  const chosen = names.includes('all')
    ? regions
    : names.map((name) => {
        const region = regions.find((candidate) => candidate.name === name);
        if (!region)
          throw new UsageError(
            `the demo has no region ${name}`,
            `its regions: ${regions.map((candidate) => candidate.name).join(', ')}, or all`,
          );
        return region;
      });
  return chosen.map((region) => {
    const settings = { ...context.settings, baseUrl: region.baseUrl, token: region.tokens.personal };
    return { session: context.otherSession(settings, region.name), profile: region.name };
  });
}

/**
 * Offline, the case's control planes stand for the profiles: every one it recorded for `all`, else
 * those of the profiles named. Each is labelled with the profile of this config that names its base
 * URL, else with its host; none needs a token.
 */
async function offlineSources(context: SourceContext, names: string[]): Promise<Source[]> {
  const { withApi } = await import('../api/case/har.js');
  const { settings: own, resolved } = context;
  const { trail } = own.offline!;
  const label = (baseUrl: string) =>
    resolved.profileNames.find((name) => resolved.profileBaseUrl(name) === baseUrl) ?? new URL(baseUrl).host;
  const apis = names.includes('all')
    ? trail.apis
    : names.map((name) => {
        const api = trail.apis.find((each) => each.baseUrl === resolved.profileBaseUrl(name));
        if (!api)
          throw new UsageError(
            `the case holds no control plane of the profile ${name}`,
            `it holds ${trail.apis.map((each) => `${label(each.baseUrl)} (${each.baseUrl})`).join(', ')}; --profiles all asks each`,
          );
        return api;
      });
  const trailOptions = own.ouHeader === undefined ? {} : { ouHeader: own.ouHeader };
  return apis.map((api) => {
    const offline = { ...own.offline!, trail: withApi(trail, api.baseUrl, trailOptions) };
    const settings = { ...own, baseUrl: api.baseUrl, vendor: api.vendor, offline };
    return { session: context.sessionFor(settings, label(api.baseUrl)), profile: label(api.baseUrl) };
  });
}

/**
 * Stands for a profile that could not be opened, so that its row can name its control plane: it carries
 * no token and is never asked (the source's `failure` is its answer).
 */
function failedProfileSession(baseUrl: string | undefined, name: string): Session {
  try {
    return new Session({ baseUrl: baseUrl ?? '', readOnly: true });
  } catch {
    return new Session({
      baseUrl: `http://${encodeURIComponent(name).replace(/%/g, '') || 'profile'}.invalid`,
      readOnly: true,
    });
  }
}
