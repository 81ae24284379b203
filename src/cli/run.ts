// runCli: argv and streams in, exit code out. Every failure becomes `error:`/`hint:` lines and its exit
// code here; nothing below prints a stack trace or calls process.exit, so tests run commands in-process.

import packageJson from '../../package.json' with { type: 'json' };
import { toDpxError } from '../api/errors.js';
import type { UnitChoice } from '../api/fanout/scopes.js';
import { defaultConfigPath } from '../config/profiles.js';
import { checkView } from '../config/view-policy.js';
import { parseCommandLine, type CommandName, type ParsedArgs } from './args.js';
import { operationsCommand, resourcesCommand } from './commands/catalog.js';
import { whoamiCommand } from './commands/whoami.js';
// list and count, what scripts run most, start with the command line from V8's code cache (src/cli/code-cache.ts):
// the bundle's modules would cost them ≈ 10 ms more. Every other command is imported when asked for.
import { countCommand } from './commands/count.js';
import { listCommand } from './commands/list.js';
import { CommandContext } from './context.js';
import { interruptedExitCode } from './exit-codes.js';
import { takeUnitChoice } from './fanout.js';
import { OutputClosed, type CliIO } from './io.js';
import { formatError } from './report.js';

/** `within.view`: the saved view this command line is (commands/view.ts): the run only reads. */
export async function runCli(argv: string[], io: CliIO, within: { view?: string } = {}): Promise<number> {
  // Shell completion (hidden): never an error into the prompt, and no explorer code loaded.
  if (argv[0] === '__complete') {
    const { completeCommand } = await import('./completion/complete.js');
    return completeCommand(io, argv.slice(1));
  }
  let context: CommandContext | undefined;
  try {
    const args = parseCommandLine(argv);
    if (within.view !== undefined) {
      // Already checked as saved; the run's own options are the user's, but never make it a command a view may not be.
      checkView({ command: args.command, options: [] }, within.view);
      args.flags.view = within.view;
    }
    // `dpx call R OP --help` describes that operation, from the index and its schema.
    if (args.help && (args.command === 'call' || args.command === 'operations') && args.positionals.length >= 2) {
      const { describeCommand } = await import('./commands/catalog.js');
      const { flags } = takeUnitChoice(args.command, args.flags);
      const [resource, operationId] = args.positionals as [string, string];
      try {
        context = await CommandContext.create(io, flags, configPath(io));
        return await describeCommand(
          context,
          resource,
          operationId,
          typeof args.options['version'] === 'string' ? args.options['version'] : undefined,
        );
      } catch (error) {
        // Without an index to read, the command's own help is still help; what stopped the rest is said.
        if (error instanceof OutputClosed) return 0;
        io.stdout.write(await helpText(args.command));
        io.stderr.write(
          `note: ${resource} ${operationId} cannot be described from the discovery index:\n${formatError(error, context?.secrets() ?? tokensIn(io.env))}`,
        );
        return 0;
      }
    }
    if (args.help) {
      io.stdout.write(await helpText(args.command));
      return 0;
    }
    if (args.printVersion) {
      io.stdout.write(`dpx ${packageJson.version}\n`);
      return 0;
    }
    if (args.command === 'profile') {
      const { profileCommand } = await import('./commands/profile.js');
      return await profileCommand(io, configPath(io), args.positionals, args.flags, args.options);
    }
    if (args.command === 'completion') {
      const { completionCommand } = await import('./commands/completion.js');
      return await completionCommand(io, args.positionals);
    }
    if (args.command === 'view') {
      const { viewCommand } = await import('./commands/view.js');
      return await viewCommand(io, configPath(io), args.positionals, args.options, runCli);
    }
    if (args.command === 'demo') {
      const { demoCommand } = await import('./commands/demo.js');
      return await demoCommand(io, args.options);
    }
    if (args.command === 'case') {
      const { caseCommand } = await import('./commands/case.js');
      return await caseCommand(io, args.positionals, args.flags, args.options);
    }
    if (args.command === 'report') {
      const { reportCommand } = await import('./commands/report.js');
      return await reportCommand(io, args.positionals, args.flags, args.options, runCli);
    }
    const { flags, units } = takeUnitChoice(args.command, args.flags);
    context = await CommandContext.create(io, flags, configPath(io), { argv, args });
    await context.resolveUnit();
    const code = await dispatch(context, args, units);
    return io.signal?.aborted ? interrupted(io, context, args.command) : code;
  } catch (error) {
    if (io.signal?.aborted) return interrupted(io, context, undefined);
    if (error instanceof OutputClosed) return 0;
    io.stderr.write(formatError(error, context?.secrets() ?? tokensIn(io.env)));
    return toDpxError(error).exitCode;
  } finally {
    // The trail's last entry and the demo's sockets; a failure here is worth saying, not worth a crash.
    await context?.close().catch((error: unknown) => io.stderr.write(formatError(error, context?.secrets() ?? [])));
  }
}

async function dispatch(ctx: CommandContext, args: ParsedArgs, units: UnitChoice): Promise<number> {
  switch (args.command) {
    case 'resources':
      return resourcesCommand(ctx, args.options);
    case 'operations':
      return operationsCommand(ctx, args.positionals, args.options);
    case 'list':
      return listCommand(ctx, args.positionals, args.options, units);
    case 'count':
      return countCommand(ctx, args.positionals, args.options, units);
    case 'call': {
      const { callCommand } = await import('./commands/call.js');
      return callCommand(ctx, args.positionals, args.options);
    }
    case 'xray': {
      const { xrayCommand } = await import('./commands/xray.js');
      return xrayCommand(ctx, args.positionals, args.options);
    }
    case 'replay': {
      const { replayCommand } = await import('./commands/replay.js');
      return replayCommand(ctx, args.positionals, args.options);
    }
    case 'diff': {
      const { diffCommand } = await import('./commands/diff.js');
      return diffCommand(ctx, args.positionals, args.options);
    }
    case 'whoami':
      return whoamiCommand(ctx, args.options);
    default: {
      const { explorerCommand } = await import('./commands/explorer.js');
      return explorerCommand(ctx);
    }
  }
}

/**
 * A run stopped by SIGINT or SIGTERM: never 0, and never silent. A command that knows what it had done
 * said so already (CommandContext.reportInterruption); otherwise this says what the sessions had sent.
 */
function interrupted(io: CliIO, context: CommandContext | undefined, command: string | undefined): number {
  if (context) context.reportInterruption(undefined, command);
  else io.stderr.write(`interrupted before anything was sent\n`);
  return interruptedExitCode(io.signal);
}

/** The help, loaded only when asked for: its text is a good part of the command line's code. */
async function helpText(command: CommandName): Promise<string> {
  return (await import('./help.js')).helpText(command);
}

function configPath(io: CliIO): string {
  return defaultConfigPath(io.env);
}

/** Before the settings are read, the only token dpx may know of is the environment's. */
function tokensIn(env: NodeJS.ProcessEnv): string[] {
  const token = env['DPX_TOKEN']?.trim();
  return token ? [token] : [];
}
