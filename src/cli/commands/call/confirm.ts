// The last question before a request leaves, on the command line: the one schema policy (a body with
// problems goes only after a second, explicit yes), then the write's own confirmation — the request shown
// as it will leave and a yes on a terminal, --yes without one, and for a DELETE the id it deletes, typed
// or given as --confirm-id.
import { createInterface } from 'node:readline/promises';
import { SafetyError, UsageError } from '../../../api/errors.js';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import {
  confirmationLines,
  deleteConfirmationWord,
  isWriteMethod,
  needsTypedConfirmation,
  writeRefusal,
} from '../../../api/security/safety.js';
import type { Session } from '../../../api/session/session.js';
import type { CommandScope } from '../command.js';
import { isInteractive, type CliIO } from '../../io.js';

export interface ConfirmOptions {
  yes: boolean;
  sendInvalid: boolean;
  confirmId?: string;
  problems: string[];
}

/**
 * The one schema policy, then the write's own confirmation. A body with problems (each already shown)
 * goes only after a second, explicit yes: `send anyway?` on a terminal, --send-invalid without one. A
 * DELETE is confirmed by the id it deletes — typed, or --confirm-id ID — never by a bare yes.
 */
export async function confirmRequest(
  ctx: CommandScope,
  session: Session,
  request: PreparedRequest,
  options: ConfirmOptions,
): Promise<void> {
  const asker = new Asker(ctx.io);
  try {
    await confirmWith(ctx, session, request, options, asker);
  } finally {
    asker.close();
  }
}

async function confirmWith(
  ctx: CommandScope,
  session: Session,
  request: PreparedRequest,
  options: ConfirmOptions,
  asker: Asker,
): Promise<void> {
  const write = isWriteMethod(request.method);
  if (write) {
    const refusal = writeRefusal(request.method, session.readOnly, session.writesLocked);
    if (refusal) throw refusal;
  }
  const interactive = isInteractive(ctx.io);
  const typedDelete = needsTypedConfirmation(request.method);
  const expected = typedDelete ? deleteConfirmationWord(request) : undefined;
  if (options.confirmId !== undefined && !typedDelete)
    throw new UsageError(
      '--confirm-id confirms a DELETE, and this is not one',
      'leave it out; --yes confirms other writes',
    );
  if (expected !== undefined && options.confirmId !== undefined && options.confirmId !== expected) {
    throw new SafetyError(
      `not sent: --confirm-id ${options.confirmId} is not the id this DELETE deletes (${expected})`,
      `check the record, then give --confirm-id ${expected}`,
    );
  }
  const confirmedAlready = expected !== undefined ? options.confirmId === expected : options.yes;

  if (options.problems.length > 0 && !options.sendInvalid) {
    const count = options.problems.length === 1 ? 'a problem' : `${options.problems.length} problems`;
    if (!interactive) {
      throw new SafetyError(
        `not sent: the body has ${count} with the operation's schema (above)`,
        "fix the body, or add --send-invalid to send it anyway and test the server's own validation",
      );
    }
    if (
      !(await asker.yes(
        `the body has ${count} with the schema (above); send it anyway, to test the server's own validation? [y/N] `,
      ))
    ) {
      throw new SafetyError(
        'not sent: the body does not match the schema',
        'fix the body (dpx call R OP --help lists its fields), or answer y to send it anyway',
      );
    }
  }
  if (!write || confirmedAlready) return;
  if (!interactive) {
    if (expected !== undefined) {
      throw new SafetyError(
        `refused to send DELETE ${request.operationId} unconfirmed: there is no terminal to type the id on`,
        `add --confirm-id ${expected} to confirm the id it deletes`,
      );
    }
    throw new SafetyError(
      `refused to send ${request.method} ${request.operationId} unconfirmed: there is no terminal to ask on`,
      'add --yes to confirm the write',
    );
  }
  const { readUnitName } = await import('../../../api/fanout/units.js');
  const ouName = request.ou ? await readUnitName(session, request.ou) : undefined;
  const lines = confirmationLines(request, { baseUrl: session.baseUrl, ...(ouName ? { ouName } : {}) });
  ctx.note(['about to send a write:', ...lines.map((line) => `  ${line}`)].join('\n'));
  if (expected !== undefined) {
    const typed = await asker.ask(`type ${expected} to delete it (anything else cancels): `);
    if (typed.trim() !== expected)
      throw new SafetyError(
        `not sent: '${typed.trim()}' is not ${expected}`,
        `type the id exactly, or pass --confirm-id ${expected}`,
      );
    return;
  }
  if (!(await asker.yes('send it? [y/N] '))) {
    throw new SafetyError('not sent: the write was not confirmed', 'answer y to send it, or pass --yes');
  }
}

/** Questions on the terminal, answered one line each, from one reader: a line typed ahead is kept for the next question. */
class Asker {
  private reader: ReturnType<typeof createInterface> | undefined;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  private ended = false;

  constructor(private readonly io: CliIO) {}

  /** The answer; input that ends before one (Ctrl-D) is an empty answer. */
  ask(question: string): Promise<string> {
    this.io.stderr.write(question);
    const input = this.io.stdin;
    if (!input) return Promise.resolve('');
    if (!this.reader) {
      this.reader = createInterface({ input, terminal: false });
      this.reader.on('line', (line) => (this.waiting.length > 0 ? this.waiting.shift()!(line) : this.lines.push(line)));
      this.reader.on('close', () => {
        this.ended = true;
        for (const resolve of this.waiting.splice(0)) resolve('');
      });
    }
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift()!);
    if (this.ended) return Promise.resolve('');
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async yes(question: string): Promise<boolean> {
    return /^y(es)?$/i.test((await this.ask(question)).trim());
  }

  close(): void {
    this.reader?.close();
  }
}
