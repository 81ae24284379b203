// The error or warning panel: status, the server's error lines, and a hint. The app stays usable.
import { Box } from 'ink';
import { panelLines } from '../layout.js';
import type { ErrorInfo } from '../error-info.js';
import { truncate } from '../../text/cells.js';
import { Tinted } from './theme.js';

export function Panel({ error, columns }: { error: ErrorInfo | undefined; columns: number }) {
  const lines = panelLines(error, columns);
  if (!error) return null;
  const mark = error.tone === 'error' ? '✗ ' : '⚠ ';
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Tinted key={i} tone={error.tone === 'error' ? 'bad' : 'busy'} bold={i === 0}>
          {truncate(`${i === 0 ? mark : '  '}${line}`, columns - 1)}
        </Tinted>
      ))}
    </Box>
  );
}
