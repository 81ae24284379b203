// runCli: argv and streams in, exit code out. Every failure becomes `error:`/`hint:` lines and its exit
// code here; nothing below prints a stack trace or calls process.exit, so tests run commands in-process.

import packageJson from '../../package.json' with { type: 'json' };
import { toDpxError } from '../api/errors.js';
import { defaultConfigPath } from '../config/profiles.js';
import { checkView } from '../config/view-policy.js';
import { parseCommandLine, takeUnitChoice, type CommandName } from './args.js';
import { withOverrides, withoutOptions } from './command-line.js';
import type { CommandLine } from './commands/command.js';
import { COMMANDS } from './commands/registry.js';
import { CommandContext } from './context.js';
import { interruptedExitCode } from './exit-codes.js';
import { OutputClosed, type CliIO } from './io.js';
import { formatError } from './error-lines.js';

/** `within.view`: the saved view this command line is (commands/view/run.ts): the run only reads. */
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
    const command = COMMANDS[args.command];
    // `dpx call R OP --help` describes that operation, from the index and its schema.
    if (args.help && command.describesOperation && args.positionals.length >= 2) {
      const { describeCommand } = await import('./commands/operations/describe.js');
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
    if (args.help || command.needs === 'help') {
      io.stdout.write(await helpText(args.command));
      return 0;
    }
    if (args.printVersion) {
      io.stdout.write(`dpx ${packageJson.version}\n`);
      return 0;
    }
    // The options as the command's run function reads them: its spec declared each (parseArgs checked them).
    const { positionals, options } = args;
    if (command.needs === 'nothing') {
      const { run } = await command.load();
      return await run({
        io,
        configPath: configPath(io),
        flags: args.flags,
        positionals,
        options: options as never,
        commandLine: commandLine(),
      });
    }
    const { flags, units } = takeUnitChoice(args.command, args.flags);
    context = await CommandContext.create(io, flags, configPath(io), { argv, args });
    await context.resolveUnit();
    const { run } = await command.load();
    const code = await run(context, { positionals, options: options as never, units, ou: flags.ou });
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

/** What view and report are handed to run command lines: this runner, and the parser it runs them with. */
function commandLine(): CommandLine {
  return { run: runCli, parse: parseCommandLine, withOverrides, withoutOptions };
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
