// What a command runs with: the run's configuration resolved once (config/resolved.ts: its settings and
// every profile), one session for the control plane (created on first use) and one per further profile a
// command asks (which ones: profile-sources.ts), the demo when --demo started one, the trail when --trail
// asked for one, the recorded trail that answers instead of a control plane with --offline, and stderr
// messages that never carry a token.

import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { checkHeaderValues } from '../api/security/header-values.js';
import type { Source } from '../api/fanout/scopes.js';
import { UnitDirectory } from '../api/fanout/unit-names.js';
import { isUuid, loadUnits, type OrgUnit } from '../api/fanout/units.js';
import type { Session } from '../api/session/session.js';
import type { PageSizeStore } from '../api/session/session-options.js';
import type { HarTrail } from '../api/case/trail.js';
import { pageSizeCache } from '../config/cache.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { Resolved, secretsOf } from '../config/resolved.js';
import type { GlobalFlags, OfflineSource, Settings } from '../config/settings.js';
import type { DemoHandle } from '../demo/server.js';
import type { ParsedArgs } from './args.js';
import { signalName } from './exit-codes.js';
import type { CliIO } from './io.js';
import { CASE_PAGE_VARIABLE } from './options/shared.js';
import { answerAsRecorded } from './recorded-command.js';
import { visible } from '../text/cells.js';
import { formatWarning } from './error-lines.js';
import { sourcesOf } from './profile-sources.js';

export class CommandContext {
  private sessionInstance: Session | undefined;
  private unitList: Promise<OrgUnit[] | undefined> | undefined;
  private readonly warned = new Set<string>();
  /** Settings of further control planes a command opened (`diff --profiles`, `count --profiles`): their tokens are masked like the main one. */
  private readonly others: Settings[] = [];
  /** Every session this run made: what an interrupted run says it had sent. */
  private readonly sessions: Session[] = [];
  private interruptionReported = false;
  /**
   * Each list's largest page, kept between runs in the cache folder. Not for the demo, whose base URL
   * (a free port) is new each time: its files would only pile up. Nor for a run that records a case: its
   * replay, offline, starts from nothing, so the recording does too, and the case holds what it asks.
   */
  private readonly pageSizes: PageSizeStore | undefined;

  private constructor(
    readonly io: CliIO,
    readonly flags: GlobalFlags,
    /** The one value the configuration resolves to; every session of the run is made from it. */
    readonly resolved: Resolved,
    readonly demo: DemoHandle | undefined,
    readonly trail: HarTrail | undefined,
  ) {
    this.pageSizes = demo === undefined && trail === undefined ? pageSizeCache(defaultCacheDir(io.env)) : undefined;
  }

  /**
   * Resolves the configuration once; with --demo, starts the demo first and points the settings at its
   * first region. `command` is the command line: a case's page records it, and offline it finds the
   * recorded command.
   */
  static async create(
    io: CliIO,
    flags: GlobalFlags,
    configPath: string,
    command?: { argv: string[]; args: ParsedArgs },
  ): Promise<CommandContext> {
    const resolved = await Resolved.of(flags, io.env, configPath);
    const { settings } = resolved;
    if (settings.offline && command)
      await answerAsRecorded(settings, command.args, {
        pageId: io.env[CASE_PAGE_VARIABLE],
        ouGiven: flags.ou !== undefined,
      });
    let demo: DemoHandle | undefined;
    let trail: HarTrail | undefined;
    // The trail masks everything the context will call secret, including tokens of profiles opened later.
    let context: CommandContext | undefined;
    try {
      if (flags.demo) demo = await startDemoFor(settings);
      if (settings.trail !== undefined) {
        const { HarTrail } = await import('../api/case/trail.js');
        trail = await HarTrail.open(settings.trail, () => context?.secrets() ?? [], {
          argv: command?.argv ?? [],
          ...(settings.profile === undefined ? {} : { profile: settings.profile }),
          ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
          ...(settings.ou === undefined ? {} : { unit: settings.ou }),
          startedAt: settings.now,
        });
      }
    } catch (error) {
      await demo?.close();
      throw error;
    }
    context = new CommandContext(io, flags, resolved, demo, trail);
    for (const warning of settings.offline?.trail.warnings ?? []) context.warn(warning);
    return context;
  }

  /** This run's own settings: flags > environment > profile > defaults. */
  get settings(): Settings {
    return this.resolved.settings;
  }

  get configPath(): string {
    return this.resolved.configPath;
  }

  /** The saved view this run is (never from argv), when it is one. */
  get view(): string | undefined {
    return this.flags.view;
  }

  /** What the explorer's header names the control plane by: the case offline, the demo with --demo. */
  get label(): string | undefined {
    return this.offline?.label ?? (this.demo === undefined ? undefined : 'demo');
  }

  /** With --offline: the trail answering every request, and the label the explorer shows (`OFFLINE · <file>`). */
  get offline(): OfflineSource | undefined {
    return this.settings.offline;
  }

  /** Everything that must never reach the terminal: the tokens, a proxy's credentials, and any credential a browser's trail recorded. */
  secrets(): string[] {
    return [
      ...secretsOf(this.settings),
      ...this.others.flatMap(secretsOf),
      ...(this.settings.offline?.trail.credentials ?? []),
    ];
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
    if (
      options.needsToken !== false &&
      settings.token === undefined &&
      settings.tokenCommand === undefined &&
      settings.offline === undefined
    ) {
      throw new UsageError(
        'no token: nothing to authenticate with',
        'export DPX_TOKEN, pass --token-file FILE, or use a profile that names a token file, variable or command',
      );
    }
    this.sessionInstance = this.sessionFor({ ...settings, baseUrl: settings.baseUrl });
    return this.sessionInstance;
  }

  /**
   * The unit the run acts in, when it is given by name or path (`--ou "Acme Energy/EU"`, DPX_OU, the
   * profile's), becomes its id before the command sends anything in it.
   */
  async resolveUnit(): Promise<void> {
    const ou = this.settings.ou?.trim();
    if (!ou || isUuid(ou) || this.settings.baseUrl === undefined) return;
    const session = this.session();
    // A control character is refused as such, before it is looked up or sent.
    checkHeaderValues({ [session.ouHeader]: ou }, { [session.ouHeader.toLowerCase()]: 'the organizational unit' });
    // The name is no header value: nothing, the index included, is asked in it.
    session.setOu(undefined);
    const id = await this.unitId(ou);
    session.setOu(id);
    this.settings.ou = id;
  }

  /**
   * The id of the unit a text names: its id, its name or its path. A UUID is used as given, without a
   * request; a name that means several units is a usage error listing them; where the index lists no
   * units, the text is taken as an id.
   */
  async unitId(text: string): Promise<string> {
    const typed = text.trim();
    if (isUuid(typed)) return typed;
    // Offline, the name is looked up in the unit list the case recorded; a case without one keeps the text.
    this.unitList ??=
      this.settings.offline === undefined
        ? loadUnits(this.session())
        : loadUnits(this.session()).catch(() => undefined);
    const units = await this.unitList;
    if (!units || units.length === 0) return typed;
    const directory = new UnitDirectory(units);
    const unit = directory.resolve(typed);
    // Offline, a unit the recorded list does not name may still be one the case was recorded in.
    if (!unit && this.settings.offline !== undefined) return typed;
    if (!unit) throw directory.unknown(typed);
    return unit.id;
  }

  /**
   * A session for another saved profile, recording into the same trail; its token joins the secrets. Its
   * control plane — base URL, token, unit — comes from the profile alone (Resolved.profile): the flags'
   * and the environment's name this run's own, and its token must not reach the profile's.
   */
  async profileSession(name: string): Promise<Session> {
    const settings = await this.resolved.profile(name);
    this.others.push(settings);
    if (settings.baseUrl === undefined)
      throw new UsageError(`the profile ${name} has no base URL`, `dpx profile add ${name} --base-url URL …`);
    if (settings.token === undefined && settings.tokenCommand === undefined)
      throw new UsageError(
        `the profile ${name} names no token`,
        'give the profile a --token-file, --token-env or --token-command',
      );
    return this.sessionFor({ ...settings, baseUrl: settings.baseUrl }, name);
  }

  /**
   * The control planes a run over several asks: this run's own without --profiles; else one per profile
   * named (`all`: every profile of the config file); with --demo, the demo's regions stand for profiles.
   */
  async sources(profiles: string | undefined): Promise<Source[]> {
    return await sourcesOf(this, profiles);
  }

  /** A session for a further control plane (a demo's region) whose token is masked like the main one. */
  otherSession(settings: Settings & { baseUrl: string }, label: string): Session {
    this.others.push(settings);
    return this.sessionFor(settings, label);
  }

  /** A session recording into this run's trail; a profile's warnings are prefixed with its name. */
  sessionFor(settings: Settings & { baseUrl: string }, profile?: string): Session {
    const trail = this.trail;
    const session = this.resolved.session(settings, {
      onWarning: (message) => this.warn(profile === undefined ? message : `${profile}: ${message}`),
      ...(trail === undefined ? {} : { onExchange: (exchange) => trail.record(exchange) }),
      // Once the run is interrupted, no session of it starts another request.
      ...(this.io.signal === undefined ? {} : { stop: this.io.signal }),
      ...(this.pageSizes === undefined ? {} : { pageSizeStore: this.pageSizes }),
    });
    this.sessions.push(session);
    return session;
  }

  /**
   * After SIGINT or SIGTERM: one line on stderr saying what was done and what was not. A command that
   * knows (pages read, units counted) says so in `what`; otherwise the requests sent are the measure.
   * Said once; the exit code is the signal's (130 or 143).
   */
  reportInterruption(what: string | undefined, command?: string): void {
    if (this.interruptionReported) return;
    this.interruptionReported = true;
    const requests = this.sessions.reduce((sum, session) => sum + session.traffic.requests, 0);
    const text =
      what ??
      `${command === undefined ? 'the command' : `dpx ${command}`} stopped before it finished, ` +
        `after ${requests} ${requests === 1 ? 'request' : 'requests'}; what it had not done yet was not done`;
    this.io.stderr.write(
      `interrupted (${signalName(this.io.signal)}): ${text}; no request was sent after the signal\n`,
    );
  }

  /** A warning on stderr, once per distinct message. */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.io.stderr.write(formatWarning(message, this.secrets()));
  }

  /** A line on stderr that is not data (status, counts, notes); server text in it is made visible. */
  note(message: string): void {
    this.io.stderr.write(`${visible(message, { lines: true })}\n`);
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
  settings.tokenKind = 'demo';
  settings.tokenOrigins = [new URL(region.baseUrl).origin];
  // The demo's token lives only in this process: a copied curl reads it from a file only this user may
  // read, removed when the demo stops (the demo answers no one after that anyway).
  const folder = await mkdtemp(join(tmpdir(), 'dpx-demo-'));
  // Also on an exit that never closes the demo: the explorer exits from its signal handler.
  const removeNow = () => rmSync(folder, { recursive: true, force: true });
  process.once('exit', removeNow);
  const tokenFile = join(folder, 'token');
  await writeFile(tokenFile, `${region.tokens.personal}\n`, { mode: 0o600 });
  settings.tokenRef = { kind: 'file', path: tokenFile };
  const close = demo.close.bind(demo);
  return Object.assign(demo, {
    close: async () => {
      await close();
      process.off('exit', removeNow);
      await rm(folder, { recursive: true, force: true });
    },
  });
}
