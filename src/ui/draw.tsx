// The ink side of the explorer, loaded by runExplorer while the discovery index is on its way.
import { render, type Instance } from 'ink';
import { ColourProvider, colourWanted } from './components/theme.js';
import { ExplorerView } from './components/ExplorerView.js';
import type { Explorer } from './explorer.js';

/** Draws `explorer` on stdout until unmounted; frames as soon as the state changes: ink throttles to maxFps, and at 90 a key waited up to 12 ms for the previous frame's window. */
export function drawExplorer(explorer: Explorer): Instance {
  return render(
    <ColourProvider enabled={colourWanted(process.env)}>
      <ExplorerView explorer={explorer} />
    </ColourProvider>,
    { exitOnCtrlC: false, patchConsole: true, maxFps: 1000 },
  );
}
