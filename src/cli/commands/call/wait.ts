// `dpx call … --wait`: the task a write started, followed to its final state as `gh run watch
// --exit-status` follows a run. Progress goes to stderr (one line redrawn on a terminal, a line per change
// otherwise); the final task record goes to stdout, printed by the caller (as -o and --fields ask). Exit 0 when it completed (warnings on stderr), 6 when
// it failed or was aborted, 130 on Ctrl-C, which stops the watching and not the task.

import { toDpxError } from '../../../api/errors.js';
import { findResource } from '../../../api/hal/catalog.js';
import { findReadOperation, type PreparedRequest } from '../../../api/hal/operation.js';
import { shellQuote } from '../../../api/security/curl.js';
import { visible } from '../../../api/visible.js';
import { followTask, type TaskState } from '../../../api/operations/task.js';
import type { Session } from '../../../api/session/session.js';
import type { CommandScope } from '../command.js';
import { interruptedExitCode, TASK_UNSUCCESSFUL } from '../../exit-codes.js';
import { Progress } from '../../progress.js';

const POLL_INTERVAL_MS = 1000;

/** `in_progress 40%` — the status and progress a task reports. */
function stateText(state: TaskState): string {
  return [state.status ?? '(no status)', state.progress === undefined ? undefined : `${Math.round(state.progress)}%`]
    .filter(Boolean)
    .join(' ');
}

/** The fields of a task record that say why it ended as it did: error codes and messages, warnings. */
function reasonLines(record: Record<string, unknown>): string[] {
  return Object.entries(record)
    .filter(
      ([name, value]) =>
        /error|reason|message|warning/i.test(name) && value !== null && value !== '' && typeof value !== 'object',
    )
    .map(([name, value]) => `${name}: ${String(value).replace(/[\x00-\x1f\x7f]/g, ' ')}`);
}

/**
 * The command that shows the task again: the request's operation, or, for a task named by a link, the
 * read operation of its resource, from the index already read (nothing is sent after an interrupt).
 */
async function showCommand(session: Session, request: PreparedRequest, taskId: string): Promise<string | undefined> {
  let operationId: string | undefined = request.operationId || undefined;
  if (operationId === undefined) {
    const catalog = await session.catalog().catch(() => undefined);
    const resource = catalog && findResource(catalog, request.resource);
    operationId = resource && findReadOperation(resource, request.version)?.operation.id;
  }
  if (operationId === undefined) return undefined;
  const words = ['dpx', 'call', request.resource, operationId, taskId];
  return visible(words.map((word) => (/^[\w.:/-]+$/.test(word) ? word : shellQuote(word))).join(' '));
}

export async function waitForTask(
  ctx: CommandScope,
  session: Session,
  request: PreparedRequest,
  print: (task: Record<string, unknown>) => Promise<void>,
  taskId?: string,
): Promise<number> {
  const name = taskId ? `task ${taskId}` : 'the task';
  const progress = Progress.forStream(ctx.io.stderr);
  const polling = new AbortController();
  const interrupted = (): void => polling.abort();
  ctx.io.signal?.addEventListener('abort', interrupted, { once: true });
  let last: TaskState | undefined;
  let lastLine = '';
  try {
    for await (const state of followTask(session, request, { intervalMs: POLL_INTERVAL_MS, signal: polling.signal })) {
      last = state;
      const line = `${name}: ${stateText(state)}`;
      if (progress) progress.show(`${line} · poll ${state.polls}`);
      else if (line !== lastLine) ctx.note(line);
      lastLine = line;
    }
  } catch (error) {
    progress?.clear();
    if (polling.signal.aborted) {
      const again = taskId === undefined ? undefined : await showCommand(session, request, taskId);
      ctx.note(
        `stopped watching ${name}${last ? ` (${stateText(last)})` : ''}: the task goes on on the control plane` +
          (again ? `; see it with ${again}` : ''),
      );
      return interruptedExitCode(ctx.io.signal);
    }
    throw toDpxError(error);
  } finally {
    ctx.io.signal?.removeEventListener('abort', interrupted);
  }
  progress?.clear();
  if (!last) return 0;
  await print(last.record);
  if (last.outcome === 'failed') {
    ctx.note(`${name} ended without success: ${stateText(last)}`);
    for (const line of reasonLines(last.record)) ctx.note(`  ${line}`);
    return TASK_UNSUCCESSFUL;
  }
  if (last.outcome === 'warning') {
    ctx.warn(`${name} finished with warnings: ${stateText(last)}`);
    for (const line of reasonLines(last.record)) ctx.warn(line);
  } else {
    ctx.note(`${name} ${last.status ?? 'finished'}`);
  }
  return 0;
}
