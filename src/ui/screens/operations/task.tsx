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
import { oneLine } from '../../../text/cells.js';

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
    for await (const task of followTask(flow.origin.connection.session, request, { intervalMs, signal: polling.signal })) ctx.update({ task });
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
      keys: ['return'], help: 'open the final task record', hint: 'Enter open the task', when: (s) => s.task?.final === true,
      run: (ctx) => {
        const { flow, request, task } = ctx.state;
        if (!task) return;
        leaveFlow(ctx as ScreenContext<unknown>, flow);
        ctx.nav.open('record', { origin: flow.origin, resource: request.resource, version: request.version, record: task.record });
      },
    },
    { keys: ['escape'], help: 'stop watching (the task goes on)', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx }) => {
    const { task, failure, request } = state;
    const intervalMs = ctx.services.taskIntervalMs ?? DEFAULT_INTERVAL_MS;
    const tone = task ? OUTCOME_TONE[task.outcome] : 'info';
    const fields = task ? Object.entries(task.record).filter(([name, value]) => !name.startsWith('_') && value !== null && typeof value !== 'object') : [];
    return (
      <Box flexDirection="column">
        <Text bold>Task <Text dimColor>{request.url}</Text></Text>
        {!task && !failure ? <Text dimColor>fetching…</Text> : null}
        {task ? (
          <Box flexDirection="column">
            <Text>
              status <Tinted tone={tone} bold>{task.status ?? '(no status field)'}</Tinted>
              <Text dimColor>  poll {task.polls}{task.final ? ' · final' : ` · every ${(intervalMs / 1000).toFixed(1)} s`}</Text>
            </Text>
            {task.progress !== undefined ? <Tinted tone={tone}>{percentBar(task.progress, 40)}</Tinted> : null}
            {task.final ? (
              <Tinted tone={tone} bold>{task.outcome === 'succeeded' ? '✓ finished' : task.outcome === 'failed' ? '✗ ended without success' : '! finished with warnings'}</Tinted>
            ) : null}
            <Box flexDirection="column" marginTop={1}>
              {fields.slice(0, task.final ? fields.length : SHOWN_FIELDS).map(([name, value]) => (
                <Text key={name} wrap="truncate"><Text dimColor>{oneLine(name)}:</Text> {oneLine(String(value))}</Text>
              ))}
            </Box>
          </Box>
        ) : null}
        {failure ? <Tinted tone="bad">{failure}</Tinted> : null}
      </Box>
    );
  },
};
