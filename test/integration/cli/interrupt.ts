// A `--wait` interrupted as a user would: the run is stopped once it has said the task is queued or in
// progress, so that the task it started goes on without it.
import { type CliResult, dpx } from './harness.js';

/**
 * `dpx call restores create_restore --wait` with `body`, writes allowed and confirmed, under `env`, stopped
 * with `reason` (Ctrl-C when none) once it shows the task queued or in progress.
 */
export function interruptedRestore(body: string, env: Record<string, string>, reason?: unknown): Promise<CliResult> {
  const controller = new AbortController();
  return dpx(['call', 'restores', 'create_restore', '--body', body, '--allow-writes', '--yes', '--wait'], {
    env,
    signal: controller.signal,
    watchStderr: (text) => {
      if (/: queued|: in_progress/.test(text)) controller.abort(reason);
    },
  });
}
