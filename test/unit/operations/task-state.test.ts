import { describe, expect, it } from 'vitest';
import { isFinalTask, isTaskLike, taskOutcome, taskProgress, taskStatus } from '../../../src/api/operations/task.js';

describe('task states', () => {
  it.each([
    [{ status: 'queued', progress_percentage: 0 }, false, 'running'],
    [{ status: 'in_progress', progress_percentage: 100 }, false, 'running'],
    [{ status: 'completed', progress_percentage: 100 }, true, 'succeeded'],
    [{ status: 'failed', progress_percentage: 40 }, true, 'failed'],
    [{ status: 'aborted' }, true, 'failed'],
    [{ status: 'Canceled' }, true, 'failed'],
    [{ status: 'completed_with_warnings', progress_percentage: 100 }, true, 'warning'],
    [{ state: 'SUCCEEDED' }, true, 'succeeded'],
    [{ status: 'archived', progress_percentage: 100 }, true, 'warning'],
    [{ status: 'archived', progress_percentage: 50 }, false, 'running'],
    [{ progress: 100 }, true, 'succeeded'],
    [{}, false, 'running'],
  ])('%j is final: %s, outcome %s', (record, final, outcome) => {
    expect(isFinalTask(record)).toBe(final);
    expect(taskOutcome(record)).toBe(outcome);
  });

  it('reads status and progress from status-like and progress-like fields', () => {
    expect(taskStatus({ job_state: 'Running' })).toBe('running');
    expect(taskProgress({ percent_complete: 12 })).toBe(12);
    expect(taskProgress({ progress: 'half' })).toBeUndefined();
  });

  it('knows a task by an id with a status or progress', () => {
    expect(isTaskLike({ id: 'a', status: 'queued' })).toBe(true);
    expect(isTaskLike({ id: 3, progress_percentage: 0 })).toBe(true);
    expect(isTaskLike({ id: 'a' })).toBe(false);
    expect(isTaskLike({ status: 'queued' })).toBe(false);
  });
});
