// The exact request before it goes: method, URL, headers (token masked), OU, body. `c` copies it as a
// curl command through the terminal clipboard and prints it, so it can also be selected by hand.
import { Box, Text, useStdout } from 'ink';
import { useState } from 'react';
import type { RequestPreview as Preview } from '../../api/operations/preview.js';
import { isWriteMethod, writeRefusal } from '../../api/safety.js';
import { Tinted } from '../components/theme.js';
import { osc52 } from './clipboard.js';
import { isChar, useKeys } from './use-keys.js';

export interface RequestPreviewProps {
  preview: Preview;
  readOnly: boolean;
  /** Puts text on the clipboard; by default an OSC 52 sequence written straight to the terminal. */
  copy?: (text: string) => void;
  onSend(): void;
  onBack(): void;
  isActive?: boolean;
}

export function RequestPreview(props: RequestPreviewProps): React.ReactElement {
  const { stdout } = useStdout();
  const [showCurl, setShowCurl] = useState(false);
  const refusal = writeRefusal(props.preview.method, props.readOnly);
  const copy = props.copy ?? ((text: string) => stdout.write(osc52(text)));
  useKeys((key) => {
    if (key.name === 'escape') props.onBack();
    else if (isChar(key, 'c')) {
      copy(props.preview.curl);
      setShowCurl(true);
    } else if (key.name === 'return' && !refusal) props.onSend();
  }, props.isActive ?? true);

  return (
    <Box flexDirection="column">
      <Text bold>Request preview</Text>
      <Box flexDirection="column" borderStyle="single" paddingX={1}>
        {props.preview.lines.map((line, index) => (
          <Text key={index} wrap="wrap" bold={index === 0}>
            {line === '' ? ' ' : line}
          </Text>
        ))}
      </Box>
      {refusal ? (
        <Tinted tone="bad">
          ✗ {refusal.message}. {refusal.hint}.
        </Tinted>
      ) : null}
      {showCurl && (
        <Box flexDirection="column" marginTop={1}>
          <Tinted tone="good">copied as curl (OSC 52); with the token in $DPX_TOKEN:</Tinted>
          <Text>{props.preview.curl}</Text>
        </Box>
      )}
      <Text dimColor>
        {refusal ? '' : `Enter ${isWriteMethod(props.preview.method) ? 'confirm and send' : 'send'} · `}c copy as curl · Esc back to the form
      </Text>
    </Box>
  );
}
