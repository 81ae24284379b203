// A live view of one task: polled until it reaches a final state, with its progress bar; then the
// final record, and Enter to open it.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { toDpxError } from '../../api/errors.js';
import { followTask, type TaskSession, type TaskState } from '../../api/operations/task.js';
import type { PreparedRequest } from '../../api/operation.js';
import { percentBar } from '../values.js';
import { OUTCOME_TONE, Tinted } from '../components/theme.js';
import { useKeys } from './use-keys.js';

export interface TaskFollowProps {
  session: Pick<TaskSession, 'send'>;
  request: PreparedRequest;
  intervalMs?: number;
  /** Enter on a final state: show the task record (e.g. in the explorer's detail view). */
  onOpenResult?(record: Record<string, unknown>): void;
  onBack(): void;
  isActive?: boolean;
}

const SHOWN_FIELDS = 8;

export function TaskFollow(props: TaskFollowProps): React.ReactElement {
  const [state, setState] = useState<TaskState | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const { session, request, intervalMs } = props;

  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        for await (const next of followTask(session, request, { intervalMs: intervalMs ?? 1000, signal: controller.signal })) setState(next);
      } catch (error) {
        if (!controller.signal.aborted) setFailure(`${toDpxError(error).message} — polling stopped`);
      }
    })();
    return () => controller.abort();
  }, [session, request, intervalMs]);

  useKeys((key) => {
    if (key.name === 'escape') props.onBack();
    else if (key.name === 'return' && state?.final && props.onOpenResult) props.onOpenResult(state.record);
  }, props.isActive ?? true);

  const tone = state ? OUTCOME_TONE[state.outcome] : 'info';
  const fields = state ? Object.entries(state.record).filter(([name, value]) => !name.startsWith('_') && value !== null && typeof value !== 'object') : [];
  return (
    <Box flexDirection="column">
      <Text bold>
        Task <Text dimColor>{request.url}</Text>
      </Text>
      {!state && !failure ? <Text dimColor>fetching…</Text> : null}
      {state ? (
        <Box flexDirection="column">
          <Text>
            status <Tinted tone={tone} bold>{state.status ?? '(no status field)'}</Tinted>
            <Text dimColor>  poll {state.polls}{state.final ? ' · final' : ` · every ${((intervalMs ?? 1000) / 1000).toFixed(1)} s`}</Text>
          </Text>
          {state.progress !== undefined ? <Tinted tone={tone}>{percentBar(state.progress, 40)}</Tinted> : null}
          {state.final ? (
            <Tinted tone={tone} bold>
              {state.outcome === 'succeeded' ? '✓ finished' : state.outcome === 'failed' ? '✗ ended without success' : '! finished with warnings'}
            </Tinted>
          ) : null}
          <Box flexDirection="column" marginTop={1}>
            {fields.slice(0, state.final ? fields.length : SHOWN_FIELDS).map(([name, value]) => (
              <Text key={name} wrap="truncate">
                <Text dimColor>{name}:</Text> {String(value)}
              </Text>
            ))}
          </Box>
        </Box>
      ) : null}
      {failure ? <Tinted tone="bad">{failure}</Tinted> : null}
      <Text dimColor>{state?.final && props.onOpenResult ? 'Enter open the task · ' : ''}Esc {state?.final ? 'back' : 'stop watching (the task goes on)'}</Text>
    </Box>
  );
}
