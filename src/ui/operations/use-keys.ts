// Key handling for the operation screens: every key of one input event, in order, to a handler that
// always sees the latest props (ink batches keys that arrive together into one event).
import { useInput, useStdin } from 'ink';
import { useRef } from 'react';
import { toKeys, type Key } from '../keys.js';

export function useKeys(handler: (key: Key) => void, isActive = true): void {
  const latest = useRef(handler);
  latest.current = handler;
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, flags) => {
      for (const key of toKeys(input, flags)) latest.current(key);
    },
    { isActive: isActive && isRawModeSupported === true },
  );
}

export function isChar(key: Key, char: string): boolean {
  return key.name === 'char' && !key.ctrl && key.char === char;
}
