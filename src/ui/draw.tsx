// The ink side of the explorer, loaded by runExplorer while the discovery index is on its way.
import { render, type Instance } from 'ink';
import { ColourProvider, colourWanted } from './components/theme.js';
import { ExplorerView } from './components/ExplorerView.js';
import type { Explorer } from './explorer.js';

/** Draws `explorer` on stdout until unmounted; frames at up to 90 a second (ink's default 30 lags keys). */
export function drawExplorer(explorer: Explorer): Instance {
  return render(
    <ColourProvider enabled={colourWanted(process.env)}>
      <ExplorerView explorer={explorer} />
    </ColourProvider>,
    { exitOnCtrlC: false, patchConsole: true, maxFps: 90 },
  );
}
