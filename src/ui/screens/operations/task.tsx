// A live view of one task: polled until it reaches a final state, with its progress bar; then the final
// record, which Enter opens in the explorer's record view.
import { Box, Text } from 'ink';
import { toDpxError } from '../../../api/errors.js';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { followTask, type TaskState } from '../../../api/operations/task.js';
import { OUTCOME_TONE, Tinted } from '../../components/theme.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import { percentBar } from '../../values.js';
import { leaveFlow, type Flow } from './flow.js';
import { oneLine, wrapLines } from '../../../text/cells.js';
import { share } from '../../layout.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    task: TaskParams;
  }
}

export interface TaskParams {
  flow: Flow;
  request: PreparedRequest;
}

export interface TaskScreenState extends ScreenBase, TaskParams {
  task?: TaskState;
  failure?: string;
  polling: AbortController;
}

const SHOWN_FIELDS = 8;
const DEFAULT_INTERVAL_MS = 1000;

async function poll(ctx: ScreenContext<TaskScreenState>): Promise<void> {
  const { flow, request, polling } = ctx.state;
  try {
    const intervalMs = ctx.services.taskIntervalMs ?? DEFAULT_INTERVAL_MS;
    for await (const task of followTask(flow.origin.connection.session, request, {
      intervalMs,
      signal: polling.signal,
    }))
      ctx.update({ task });
  } catch (error) {
    if (!polling.signal.aborted) ctx.update({ failure: `${toDpxError(error).message} — polling stopped` });
  }
}

export const taskScreen: ScreenModule<TaskScreenState, TaskParams> = {
  title: 'task follow (t)',
  init: (params) => ({ ...params, polling: new AbortController() }),
  start: (ctx) => void poll(ctx),
  stop: (state) => state.polling.abort(),
  origin: (s) => s.flow.origin,
  crumb: () => 'task',
  subject: (s) => `${s.request.resource}@${s.request.version}`,
  bindings: [
    {
      keys: ['return'],
      help: 'open the final task record',
      hint: 'Enter open the task',
      when: (s) => s.task?.final === true,
      run: (ctx) => {
        const { flow, request, task } = ctx.state;
        if (!task) return;
        leaveFlow(ctx as ScreenContext<unknown>, flow);
        ctx.nav.open('record', {
          origin: flow.origin,
          resource: request.resource,
          version: request.version,
          record: task.record,
        });
      },
    },
    { keys: ['escape'], help: 'stop watching (the task goes on)', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, height, width }) => {
    const { task, failure, request } = state;
    const intervalMs = ctx.services.taskIntervalMs ?? DEFAULT_INTERVAL_MS;
    const tone = task ? OUTCOME_TONE[task.outcome] : 'info';
    const fields = task
      ? Object.entries(task.record).filter(
          ([name, value]) => !name.startsWith('_') && value !== null && typeof value !== 'object',
        )
      : [];
    const wanted = task ? Math.min(fields.length, task.final ? fields.length : SHOWN_FIELDS) : 0;
    const failed = failure ? wrapLines(failure, Math.max(1, width - 1), 3) : [];
    const status = task ? 1 + (task.progress !== undefined ? 1 : 0) + (task.final ? 1 : 0) : failure ? 0 : 1;
    // The title, the status and the failure first; then the fields, after a blank line when they all fit.
    const [, , failureRoom = 0, fieldRoom = 0, gapRoom = 0] = share(height, [
      { least: 1, most: 1 },
      { least: status, most: status },
      { least: Math.min(1, failed.length), most: failed.length },
      { least: 0, most: wanted },
      { least: 0, most: wanted > 0 ? 1 : 0 },
    ]);
    // Fields that do not all fit leave a line to say how many more the record has.
    const shown = fieldRoom < wanted ? Math.max(0, fieldRoom - 1) : wanted;
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate">
          Task <Text dimColor>{oneLine(request.url)}</Text>
        </Text>
        {!task && !failure ? <Text dimColor>fetching…</Text> : null}
        {task ? (
          <Box flexDirection="column">
            <Text wrap="truncate">
              status{' '}
              <Tinted tone={tone} bold>
                {oneLine(task.status ?? '(no status field)')}
              </Tinted>
              <Text dimColor>
                {' '}
                poll {task.polls}
                {task.final ? ' · final' : ` · every ${(intervalMs / 1000).toFixed(1)} s`}
              </Text>
            </Text>
            {task.progress !== undefined ? (
              <Tinted tone={tone}>{percentBar(task.progress, Math.min(40, Math.max(10, width - 12)))}</Tinted>
            ) : null}
            {task.final ? (
              <Tinted tone={tone} bold>
                {task.outcome === 'succeeded'
                  ? '✓ finished'
                  : task.outcome === 'failed'
                    ? '✗ ended without success'
                    : '! finished with warnings'}
              </Tinted>
            ) : null}
            {gapRoom > 0 ? <Text> </Text> : null}
            {fields.slice(0, shown).map(([name, value]) => (
              <Text key={name} wrap="truncate">
                <Text dimColor>{oneLine(name)}:</Text> {oneLine(String(value))}
              </Text>
            ))}
            {shown < wanted && fieldRoom > 0 ? (
              <Tinted tone="muted">
                … {fields.length - shown} more fields{task.final ? ' (Enter opens the task)' : ''}
              </Tinted>
            ) : null}
          </Box>
        ) : null}
        {failed.slice(0, failureRoom).map((line, index) => (
          <Tinted key={index} tone="bad">
            {line}
          </Tinted>
        ))}
      </Box>
    );
  },
};
