// The ink side of the explorer, loaded by runExplorer while the discovery index is on its way.
import { render, type Instance } from 'ink';
import { osc52 } from './clipboard.js';
import { ColourProvider, colourWanted } from './components/theme.js';
import { Frame } from './components/Frame.js';
import { editInEditor, terminalControl, withTerminalSuspended } from './editor.js';
import type { Navigator } from './nav/navigator.js';

/**
 * Draws the navigator's screens on the terminal until unmounted, and gives the screens the terminal's
 * hand-offs: $EDITOR (the terminal suspended meanwhile) and the clipboard. Frames go out as soon as the
 * navigator says the state changed (nav/pacer.ts paces background work): ink throttles to maxFps, and at
 * 90 a key waited up to 12 ms for the previous frame's window.
 */
export function drawExplorer(navigator: Navigator): Instance {
  const { stdin, stdout } = process;
  navigator.services.terminal = {
    copy: (text) => stdout.write(osc52(text)),
    ...(stdout.isTTY
      ? {
          edit: (text: string) =>
            withTerminalSuspended(terminalControl(stdin, stdout), () => editInEditor(text, process.env)),
        }
      : {}),
  };
  return render(
    <ColourProvider enabled={colourWanted(process.env)}>
      <Frame navigator={navigator} />
    </ColourProvider>,
    { exitOnCtrlC: false, patchConsole: true, maxFps: 1000 },
  );
}
