// `v`: the versions of a resource, newest first; the chosen one is handed back to the screen that asked.
import { Box } from 'ink';
import { Choices } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import type { ScreenBase, ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    version: VersionParams;
  }
}

export interface VersionParams {
  resource: string;
  versions: string[];
  current?: string;
  apply(version: string): void;
}

export interface VersionState extends ScreenBase, Omit<VersionParams, 'current'> {
  cursor: number;
}

export const versionScreen: ScreenModule<VersionState, VersionParams> = {
  title: 'version picker (v)',
  overlay: true,
  init: ({ resource, versions, current, apply }) => ({
    resource,
    versions,
    apply,
    cursor: Math.max(0, versions.indexOf(current ?? '')),
  }),
  crumb: () => 'version',
  bindings: [
    { keys: ['escape'], help: 'cancel', run: (ctx) => ctx.nav.back() },
    {
      keys: ['return'],
      help: 'switch to the version and reload',
      run: (ctx) => {
        const version = ctx.state.versions[ctx.state.cursor];
        ctx.nav.back();
        if (version) ctx.state.apply(version);
      },
    },
    {
      keys: ['up', 'k', 'down', 'j'],
      help: 'choose',
      run: (ctx, key) => {
        const step = key.name === 'up' || key.char === 'k' ? -1 : 1;
        ctx.update((s) => ({ cursor: Math.max(0, Math.min(s.versions.length - 1, s.cursor + step)) }));
      },
    },
  ],
  View: ({ state, height }) => (
    <Box flexDirection="column">
      <Tinted bold>version of {state.resource} (Enter switches, Esc cancels)</Tinted>
      <Choices items={state.versions} cursor={state.cursor} height={height - 1} render={(v) => v} />
    </Box>
  ),
};
