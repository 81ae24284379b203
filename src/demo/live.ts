import { world, type PendingTask } from './generate.js';
import type { Store, StoredRecord } from './store.js';

type Outcome = PendingTask['outcome'];

interface Running {
  task: StoredRecord;
  /** Real time (ms) at which a queued or scheduled task starts running. */
  startAt: number;
  runStart: number;
  runEnd: number;
  startProgress: number;
  outcome: Outcome;
  /** Real time at which an aborting task becomes aborted. */
  abortedAt?: number;
}

export const ABORTABLE_STATUSES = new Set(['scheduled', 'queued', 'in_progress']);

/**
 * The tasks that are not finished. Progress is computed from the clock whenever `advance` is called
 * (before each request), so records are plain data between requests. `speed` divides every duration;
 * `frozen` stops the clock: no task moves on its own, so counts taken one after another agree.
 */
export class LiveTasks {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly store: Store,
    private readonly speed: number,
    private readonly frozen = false,
  ) {}

  /** Tracks a task; `waitMs` and `runMs` are virtual durations, divided by the speed. */
  track(pending: PendingTask, now: number): void {
    const startAt = now + pending.waitMs / this.speed;
    const runEnd = startAt + pending.runMs / this.speed;
    this.running.set(pending.task.id, {
      task: pending.task,
      startAt,
      runStart: startAt,
      runEnd,
      startProgress: pending.task['status'] === 'in_progress' ? (pending.task['progress_percentage'] as number) : 0,
      outcome: pending.outcome,
    });
  }

  advance(now: number): void {
    if (this.frozen) return;
    for (const [id, entry] of this.running) {
      const { task } = entry;
      if (task['status'] === 'aborting') {
        if (now >= (entry.abortedAt ?? now)) {
          this.set(task, { status: 'aborted', end_timestamp: now });
          this.running.delete(id);
        }
        continue;
      }
      if ((task['status'] === 'queued' || task['status'] === 'scheduled') && now >= entry.startAt) {
        this.set(task, { status: 'in_progress', start_timestamp: Math.round(entry.startAt), progress_percentage: 0 });
      }
      if (task['status'] !== 'in_progress') continue;
      if (now >= entry.runEnd) {
        const failed = entry.outcome === 'failed';
        const failure = world.task_failures[task.id.charCodeAt(0) % world.task_failures.length];
        this.set(task, {
          status: entry.outcome,
          end_timestamp: Math.round(entry.runEnd),
          progress_percentage: failed ? task['progress_percentage'] : 100,
          error_code: failed ? (failure?.code ?? 'failed') : null,
          error_message: failed ? (failure?.message ?? 'The task failed') : null,
        });
        this.running.delete(id);
        continue;
      }
      const share = (now - entry.runStart) / (entry.runEnd - entry.runStart);
      task['progress_percentage'] = Math.min(99, Math.floor(entry.startProgress + (100 - entry.startProgress) * share));
    }
  }

  /** Moves a task that has not finished to aborting; false when it cannot be aborted. */
  abort(task: StoredRecord, now: number): boolean {
    const entry = this.running.get(task.id);
    if (!entry || !ABORTABLE_STATUSES.has(task['status'] as string)) return false;
    entry.abortedAt = now + (world.live.abort_seconds * 1000) / this.speed;
    this.set(task, { status: 'aborting' });
    return true;
  }

  /** Writes task fields and mirrors the status onto the restore the task carries out, if any. */
  private set(task: StoredRecord, fields: Record<string, unknown>): void {
    Object.assign(task, fields);
    const restoreId = task['restore_id'];
    if (typeof restoreId === 'string') {
      const restore = this.store.collection('restores').get(restoreId);
      if (restore) restore['status'] = task['status'];
    }
  }
}
