// The last question before a write: what, where, in which OU. A DELETE must be confirmed by typing
// the id it deletes, so a habitual `y` cannot remove the wrong record.
import { Box, Text } from 'ink';
import { useReducer } from 'react';
import { Tinted, useToneColour } from '../components/theme.js';
import { isChar, useKeys } from './use-keys.js';

export interface WriteConfirmProps {
  method: string;
  /** From confirmationLines: method and resource, control plane, OU, URL. */
  lines: string[];
  /** For a DELETE: the id the user must type. */
  expectedWord?: string;
  onConfirm(): void;
  onCancel(): void;
  isActive?: boolean;
}

interface Typed {
  text: string;
  wrong: boolean;
}

function typing(state: Typed, action: { type: 'char'; char: string } | { type: 'backspace' } | { type: 'wrong' }): Typed {
  if (action.type === 'char') return { text: state.text + action.char, wrong: false };
  if (action.type === 'backspace') return { text: state.text.slice(0, -1), wrong: false };
  return { ...state, wrong: true };
}

export function WriteConfirm(props: WriteConfirmProps): React.ReactElement {
  const [typed, dispatch] = useReducer(typing, { text: '', wrong: false });
  const expected = props.expectedWord;
  // Keys of one input event arrive before React re-renders; track the text they build up here.
  let text = typed.text;
  useKeys((key) => {
    if (key.name === 'escape') return props.onCancel();
    if (expected === undefined) {
      if (isChar(key, 'y') || isChar(key, 'Y')) props.onConfirm();
      else if (isChar(key, 'n') || isChar(key, 'N')) props.onCancel();
      return;
    }
    if (key.name === 'return') {
      if (text.trim() === expected) props.onConfirm();
      else dispatch({ type: 'wrong' });
    } else if (key.name === 'backspace') {
      text = text.slice(0, -1);
      dispatch({ type: 'backspace' });
    } else if (key.name === 'char' && !key.ctrl) {
      text += key.char;
      dispatch({ type: 'char', char: key.char });
    }
  }, props.isActive ?? true);

  const tone = expected === undefined ? 'busy' : 'bad';
  const border = useToneColour(tone);
  return (
    <Box flexDirection="column" borderStyle="double" {...(border ? { borderColor: border } : {})} paddingX={1}>
      <Tinted bold tone={tone}>
        Send this {props.method.toUpperCase()}? It changes data on the control plane.
      </Tinted>
      {props.lines.map((line, index) => (
        <Text key={index} wrap="wrap">
          {line}
        </Text>
      ))}
      {expected === undefined ? (
        <Text>y send · n or Esc cancel</Text>
      ) : (
        <Box flexDirection="column">
          <Text>
            Type <Text bold>{expected}</Text> to delete it, then Enter (Esc cancels):
          </Text>
          <Text>
            &gt; {typed.text}▏
          </Text>
          {typed.wrong ? <Tinted tone="bad">that is not {expected}; nothing was sent</Tinted> : null}
        </Box>
      )}
    </Box>
  );
}
