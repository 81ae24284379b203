// What came back: status, headers, and the body as a tree or raw JSON (`y`); an error as its
// `[code] message` lines; a 202 that names a task offers `t` to follow it.
import { Box, Text } from 'ink';
import { useState } from 'react';
import { isObject } from '../../api/json.js';
import { ApiError, type DpxError } from '../../api/errors.js';
import type { FollowableTask } from '../../api/operations/task.js';
import type { ApiResponse } from '../../api/session.js';
import { oneLine, truncate } from '../../text/cells.js';
import { flattenTree } from '../tree.js';
import { formatExact, summarise } from '../values.js';
import { httpStatusTone, Tinted } from '../components/theme.js';
import { isChar, useKeys } from './use-keys.js';

export interface ResponseViewProps {
  /** The response, or the error the request ended in. */
  response?: ApiResponse;
  error?: DpxError;
  followable?: FollowableTask;
  height?: number;
  width?: number;
  onFollow?(): void;
  onBack(): void;
  isActive?: boolean;
}

/** `[code] message` lines from an `errors` envelope in a body, or none. */
export function errorLines(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body['errors'])) return [];
  return body['errors'].map((entry) =>
    isObject(entry) ? `[${String(entry['error_code'] ?? entry['code'] ?? '?')}] ${oneLine(String(entry['error_message'] ?? entry['message'] ?? ''))}` : oneLine(String(entry)),
  );
}

function bodyLines(body: unknown, text: string, raw: boolean, width: number): string[] {
  if (raw || !isObject(body) && !Array.isArray(body)) {
    const shown = body === undefined || body === null ? text : JSON.stringify(body, null, 2);
    return shown === '' ? ['(no body)'] : shown.split('\n');
  }
  const links = isObject(body) && isObject(body['_links']) ? Object.keys(body['_links']) : [];
  const lines = flattenTree(body, new Set()).map((line) => {
    const value = line.container ? summarise(line.value) : formatExact(line.value, Date.now()).text;
    return truncate(`${'  '.repeat(line.depth)}${line.label}: ${value}`, width);
  });
  return links.length > 0 ? [...lines, `_links: ${links.join(', ')}`] : lines;
}

export function ResponseView(props: ResponseViewProps): React.ReactElement {
  const [raw, setRaw] = useState(false);
  const [top, setTop] = useState(0);
  const width = props.width ?? 100;
  const { response, error } = props;
  // `height` is all the rows there are: status, headers, error lines, the task offer, the body, the
  // key line. Headers give way first so the body always keeps a few rows.
  const total = props.height ?? 24;
  const errors = response ? errorLines(response.body) : [];
  const headerNames = response ? Object.keys(response.headers).sort() : [];
  const fixed = 3 + errors.length + (props.followable ? 1 : 0);
  const headerRoom = Math.max(1, Math.min(headerNames.length, total - fixed - 5));
  const shownHeaders = headerNames.length > headerRoom ? headerNames.slice(0, headerRoom - 1) : headerNames;
  const hiddenHeaders = headerNames.length - shownHeaders.length;
  const height = Math.max(3, total - fixed - shownHeaders.length - (hiddenHeaders > 0 ? 1 : 0));
  const lines = response ? bodyLines(response.body, response.text, raw, width) : [];
  const maxTop = Math.max(0, lines.length - height);
  useKeys((key) => {
    if (key.name === 'escape') props.onBack();
    else if (isChar(key, 'y')) setRaw((value) => !value);
    else if (isChar(key, 't') && props.followable && props.onFollow) props.onFollow();
    else if (key.name === 'down' || isChar(key, 'j')) setTop((at) => Math.min(maxTop, at + 1));
    else if (key.name === 'up' || isChar(key, 'k')) setTop((at) => Math.max(0, at - 1));
    else if (key.name === 'pagedown') setTop((at) => Math.min(maxTop, at + height));
    else if (key.name === 'pageup') setTop((at) => Math.max(0, at - height));
  }, props.isActive ?? true);

  if (!response) {
    const status = error instanceof ApiError ? error.status : undefined;
    return (
      <Box flexDirection="column">
        <Tinted bold tone={status ? httpStatusTone(status) : 'bad'}>
          {status ? `HTTP ${status} · ` : ''}
          {error?.message ?? 'no response'}
        </Tinted>
        {error instanceof ApiError && error.errors.map((entry, index) => (
          <Tinted key={index} tone="bad">
            [{entry.code}] {entry.message}
          </Tinted>
        ))}
        {error?.hint ? <Text dimColor>hint: {error.hint}</Text> : null}
        <Text dimColor>Esc back</Text>
      </Box>
    );
  }

  return (
    <Box flexDirection="column">
      <Text bold>
        <Tinted tone={httpStatusTone(response.status)}>
          {response.status} {response.statusText}
        </Tinted>{' '}
        {response.method} {response.url} <Text dimColor>{Math.round(response.durationMs)} ms</Text>
      </Text>
      {shownHeaders.map((name) => (
        <Text key={name} dimColor wrap="truncate">
          {name}: {response.headers[name]}
        </Text>
      ))}
      {hiddenHeaders > 0 ? <Text dimColor>… {hiddenHeaders} more headers (y raw shows the body only)</Text> : null}
      {errors.map((line, index) => (
        <Tinted key={index} tone="bad" wrap="truncate">
          {line}
        </Tinted>
      ))}
      {props.followable ? (
        <Tinted tone="info">
          this response names a task ({props.followable.taskId ?? props.followable.resource}, via {props.followable.reason}): t follow it
        </Tinted>
      ) : null}
      <Box flexDirection="column" marginTop={1}>
        {lines.slice(top, top + height).map((line, index) => (
          <Text key={top + index} wrap="truncate">
            {line === '' ? ' ' : line}
          </Text>
        ))}
      </Box>
      <Text dimColor>
        {raw ? 'raw' : 'tree'} · y {raw ? 'tree' : 'raw'} · ↑↓ scroll{lines.length > height ? ` (${top + 1}–${Math.min(lines.length, top + height)} of ${lines.length})` : ''}
        {props.followable ? ' · t follow the task' : ''} · Esc back
      </Text>
    </Box>
  );
}
