// Colours for the operation screens: HTTP status classes and task outcomes.
import type { TaskOutcome } from '../../api/operations/task.js';

export function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'yellow';
  if (status >= 300) return 'cyan';
  return 'green';
}

export const OUTCOME_COLOR: Record<TaskOutcome, string> = { running: 'cyan', succeeded: 'green', warning: 'yellow', failed: 'red' };

export const METHOD_COLOR: Record<string, string> = { GET: 'green', HEAD: 'green', POST: 'yellow', PUT: 'yellow', PATCH: 'yellow', DELETE: 'red' };
