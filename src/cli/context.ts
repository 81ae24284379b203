// What a command runs with: the resolved settings, one session for the control plane (created on first
// use) and one per further profile a command asks, the demo when --demo started one, the trail when
// --trail asked for one, the recorded trail that answers instead of a control plane with --offline, and
// stderr messages that never carry a token.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';
import type { Source } from '../api/fanout/scopes.js';
import type { Session } from '../api/session/session.js';
import type { HarTrail } from '../api/case/trail.js';
import { listProfiles } from '../config/profiles.js';
import { sessionFromSettings } from '../config/session.js';
import { resolveProfileSettings, resolveSettings, type GlobalFlags, type OfflineSource, type Settings } from '../config/settings.js';
import type { DemoHandle } from '../demo/server.js';
import type { CliIO } from './io.js';
import { formatWarning } from './report.js';

export class CommandContext {
  private sessionInstance: Session | undefined;
  private readonly warned = new Set<string>();
  /** Tokens of further profiles a command opened (`diff --profiles`, `count --profiles`): masked like the main one. */
  private readonly otherTokens: string[] = [];

  private constructor(
    readonly io: CliIO,
    readonly flags: GlobalFlags,
    readonly settings: Settings,
    readonly configPath: string,
    readonly demo: DemoHandle | undefined,
    readonly trail: HarTrail | undefined,
  ) {}

  /** Resolves settings; with --demo, starts the demo first and points the settings at its first region. */
  static async create(io: CliIO, flags: GlobalFlags, configPath: string): Promise<CommandContext> {
    const settings = await resolveSettings(flags, io.env, configPath);
    let demo: DemoHandle | undefined;
    let trail: HarTrail | undefined;
    // The trail masks everything the context will call secret, including tokens of profiles opened later.
    let context: CommandContext | undefined;
    try {
      if (flags.demo) demo = await startDemoFor(settings);
      if (settings.trail !== undefined) {
        const { HarTrail } = await import('../api/case/trail.js');
        trail = await HarTrail.open(settings.trail, () => context?.secrets() ?? []);
      }
    } catch (error) {
      await demo?.close();
      throw error;
    }
    context = new CommandContext(io, flags, settings, configPath, demo, trail);
    for (const warning of settings.offline?.trail.warnings ?? []) context.warn(warning);
    return context;
  }

  /** With --offline: the trail answering every request, and the label the explorer shows (`OFFLINE · <file>`). */
  get offline(): OfflineSource | undefined {
    return this.settings.offline;
  }

  /** Everything that must never reach the terminal: the token, and any credential a browser's trail recorded. */
  secrets(): string[] {
    return [...(this.settings.token ? [this.settings.token] : []), ...this.otherTokens, ...(this.settings.offline?.trail.credentials ?? [])];
  }

  /** The control plane's session (offline: the trail's); a usage error when no base URL or no token is configured. */
  session(options: { needsToken?: boolean } = {}): Session {
    if (this.sessionInstance) return this.sessionInstance;
    const { settings } = this;
    if (settings.baseUrl === undefined) {
      throw new UsageError(
        'no control plane: no base URL is configured',
        'pass --base-url URL, set DPX_BASE_URL, add a profile (dpx profile add), or try --demo',
      );
    }
    if (options.needsToken !== false && settings.token === undefined && settings.offline === undefined) {
      throw new UsageError('no token: nothing to authenticate with', 'export DPX_TOKEN, pass --token-file FILE, or use a profile that names a token file');
    }
    this.sessionInstance = this.sessionFor({ ...settings, baseUrl: settings.baseUrl });
    return this.sessionInstance;
  }

  /**
   * A session for another saved profile, recording into the same trail; its token joins the secrets. Its
   * control plane — base URL, token, unit — comes from the profile alone (resolveProfileSettings): the
   * flags' and the environment's name this run's own, and its token must not reach the profile's.
   */
  async profileSession(name: string): Promise<Session> {
    const settings = await resolveProfileSettings(name, this.flags, this.io.env, this.configPath);
    if (settings.token) this.otherTokens.push(settings.token);
    if (settings.baseUrl === undefined) throw new UsageError(`the profile ${name} has no base URL`, `dpx profile add ${name} --base-url URL …`);
    if (settings.token === undefined) throw new UsageError(`the profile ${name} names no token`, 'give the profile a --token-file or --token-env');
    return this.sessionFor({ ...settings, baseUrl: settings.baseUrl }, name);
  }

  /**
   * The control planes a run over several asks: this run's own without --profiles; else one per profile
   * named (`all`: every profile of the config file); with --demo, the demo's regions stand for profiles.
   */
  async sources(profiles: string | undefined): Promise<Source[]> {
    if (profiles === undefined) {
      const own = this.session();
      return [this.settings.profile === undefined ? { session: own } : { session: own, profile: this.settings.profile }];
    }
    if (this.flags.baseUrl !== undefined || this.flags.tokenFile !== undefined) {
      throw new UsageError('--profiles takes each control plane from its profile: --base-url and --token-file name only one', 'leave them out, or drop --profiles');
    }
    const names = profiles.split(',').map((name) => name.trim()).filter((name) => name !== '');
    if (this.demo) return this.demoSources(names);
    const chosen = names.includes('all') ? (await listProfiles(this.configPath)).map((entry) => entry.name) : names;
    if (chosen.length === 0) {
      throw new UsageError(`no profiles in ${this.configPath}`, 'add some with: dpx profile add NAME --base-url URL --token-file FILE');
    }
    const sources: Source[] = [];
    for (const name of chosen) sources.push({ session: await this.profileSession(name), profile: name });
    return sources;
  }

  /** The demo's regions as if they were profiles named after them. */
  private demoSources(names: string[]): Source[] {
    const regions = this.demo!.regions;
    const chosen = names.includes('all') ? regions : names.map((name) => {
      const region = regions.find((candidate) => candidate.name === name);
      if (!region) throw new UsageError(`the demo has no region ${name}`, `its regions: ${regions.map((candidate) => candidate.name).join(', ')}, or all`);
      return region;
    });
    return chosen.map((region) => {
      this.otherTokens.push(region.tokens.personal);
      return { session: this.sessionFor({ ...this.settings, baseUrl: region.baseUrl, token: region.tokens.personal }, region.name), profile: region.name };
    });
  }

  /** A session recording into this run's trail; a profile's warnings are prefixed with its name. */
  private sessionFor(settings: Settings & { baseUrl: string }, profile?: string): Session {
    const trail = this.trail;
    return sessionFromSettings(settings, {
      onWarning: (message) => this.warn(profile === undefined ? message : `${profile}: ${message}`),
      ...(trail === undefined ? {} : { onExchange: (exchange) => trail.record(exchange) }),
    });
  }

  /** A warning on stderr, once per distinct message. */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.io.stderr.write(formatWarning(message, this.secrets()));
  }

  /** A line on stderr that is not data (status, counts, notes). */
  note(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  async close(): Promise<void> {
    await this.trail?.close();
    await this.demo?.close();
  }
}

/** Starts the embedded demo and points the settings at its first region, with that region's personal token. */
export async function startDemoFor(settings: Settings): Promise<DemoHandle> {
  const { startDemo } = await import('../demo/server.js');
  const demo = await startDemo({ port: 0, scale: 1 });
  const region = demo.regions[0];
  if (!region) {
    await demo.close();
    throw new UsageError('the demo started no region', 'this is a bug in the demo');
  }
  settings.baseUrl = region.baseUrl;
  settings.token = region.tokens.personal;
  settings.tokenSource = 'the demo (personal token of its first region)';
  // The demo's token lives only in this process: a copied curl reads it from a file only this user may
  // read, removed when the demo stops (the demo answers no one after that anyway).
  const folder = await mkdtemp(join(tmpdir(), 'dpx-demo-'));
  const tokenFile = join(folder, 'token');
  await writeFile(tokenFile, `${region.tokens.personal}\n`, { mode: 0o600 });
  settings.tokenRef = { kind: 'file', path: tokenFile };
  const close = demo.close.bind(demo);
  return Object.assign(demo, {
    close: async () => {
      await close();
      await rm(folder, { recursive: true, force: true });
    },
  });
}
