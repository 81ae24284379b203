// The body editor as drawn: the lines around the cursor, each cut to the width around the cursor's
// column, the cursor as an inverse cell (a wide character's two cells, when it stands on one).
import { Box, Text } from 'ink';
import { lineWindow, splitAtColumn, visibleLines, type TextBuffer } from '../text-buffer.js';

export interface TextAreaProps {
  buffer: TextBuffer;
  height: number;
  width: number;
  /** The first line shown last time, so the view scrolls only as far as the cursor needs. */
  top: number;
  /** Whether the cursor is shown (the editor has the keys). */
  focused: boolean;
  /** Shown dimmed when the text is empty. */
  placeholder?: string;
  /** Whether a line under the text says which lines are shown, when they are not all (by default it does). */
  position?: boolean;
}

export function TextArea({ buffer, height, width, top, focused, placeholder, position = true }: TextAreaProps) {
  const view = visibleLines(buffer, height, top);
  const total = buffer.text.split('\n').length;
  if (buffer.text === '' && !focused)
    return (
      <Text dimColor wrap="truncate">
        {placeholder ?? '(empty)'}
      </Text>
    );
  return (
    <Box flexDirection="column">
      {view.lines.map((line, index) => {
        if (!focused || index !== view.cursorLine) {
          const shown = lineWindow(line, 0, width).text;
          return (
            <Text key={view.top + index} wrap="truncate">
              {shown === '' ? ' ' : shown}
            </Text>
          );
        }
        const window = lineWindow(line, view.cursorColumn, width);
        const { before, at, after } = splitAtColumn(window.text, window.column);
        return (
          <Text key={view.top + index} wrap="truncate">
            {before}
            <Text inverse>{at}</Text>
            {after}
          </Text>
        );
      })}
      {position && total > height ? (
        <Text dimColor wrap="truncate">
          lines {view.top + 1}–{Math.min(total, view.top + height)} of {total}
        </Text>
      ) : null}
    </Box>
  );
}
