// Handing the terminal to another program (the $EDITOR) and taking it back: raw mode off and the
// alternate screen left, then both restored and the screen cleared for ink's next full frame.
import type { TerminalControl } from '../../api/operations/editor.js';

const LEAVE = '\x1b[?25h\x1b[?1049l';
const ENTER = '\x1b[?1049h\x1b[H\x1b[2J';

export function terminalControl(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): TerminalControl {
  return {
    suspend() {
      stdout.write(LEAVE);
      if (stdin.isTTY) stdin.setRawMode(false);
    },
    resume() {
      if (stdin.isTTY) stdin.setRawMode(true);
      stdout.write(ENTER);
    },
  };
}
