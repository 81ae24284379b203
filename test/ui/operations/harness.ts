// Mounting, typing and waiting for ink components under React's act().
import { render } from 'ink-testing-library';
import { act, type ReactElement } from 'react';

export type Mounted = ReturnType<typeof render>;

export async function mount(element: ReactElement): Promise<Mounted> {
  let mounted: Mounted | undefined;
  await act(async () => {
    mounted = render(element);
  });
  return mounted!;
}

export async function press(mounted: Mounted, ...inputs: string[]): Promise<void> {
  for (const input of inputs) {
    await act(async () => {
      mounted.stdin.write(input);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
  }
}

/** Waits until the frame satisfies `test`; fails with the last frame when it never does. */
export async function until(mounted: Mounted, test: (frame: string) => boolean, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = mounted.lastFrame() ?? '';
    if (test(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

export async function unmount(mounted: Mounted): Promise<void> {
  await act(async () => {
    mounted.unmount();
  });
}

export const ESC = '\x1b';
export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const BACKSPACE = '\x7f';
