// Key handling for the operation screens: every key of one input event, in order, to a handler that
// always sees the latest props (ink batches keys that arrive together into one event).
import { useInput, useStdin } from 'ink';
import { useRef, useState } from 'react';
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

/**
 * State that a key handler can read back at once: keys of one input event reach the handler before
 * React re-renders, so `Down Down Enter` must see the cursor both Downs moved, not the rendered one.
 */
export function useLiveState<T>(initial: T): [T, (next: T | ((previous: T) => T)) => void, () => T] {
  const [value, setValue] = useState(initial);
  const live = useRef(initial);
  const set = (next: T | ((previous: T) => T)): void => {
    live.current = typeof next === 'function' ? (next as (previous: T) => T)(live.current) : next;
    setValue(live.current);
  };
  return [value, set, () => live.current];
}
