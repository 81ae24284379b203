// One screen of the explorer opened straight away on a navigator, drawn in ink-testing-library, with the
// terminal's hand-offs (clipboard, editor) replaced by what the test gives.
import { step } from '../step.js';
import { compileBodyCheck } from '../../../src/api/hal/schema-compiler.js';
import type { Operation } from '../../../src/api/hal/catalog.js';
import { createOperationForm } from '../../../src/api/operations/form.js';
import { Session } from '../../../src/api/session/session.js';
import { Navigator } from '../../../src/ui/nav/navigator.js';
import type { ScreenKind, ScreenParams } from '../../../src/ui/nav/screen.js';
import type { Row } from '../../../src/ui/screens/operations/form-rows.js';
import type { Origin } from '../../../src/ui/services/connection.js';
import { Services, type TerminalHandoffs } from '../../../src/ui/services/services.js';
import { mountNavigator, type Mounted } from '../mount.js';
import { SCREENS } from '../../../src/ui/registry.js';
import { unreachableOrigin } from '../../helpers/ports.js';

/** A control plane that does not answer: a port this file bound and closed. */
export const NOWHERE = await unreachableOrigin();

export interface ScreenOptions {
  /** The control plane; by default one that is not there (for screens that send nothing). */
  session?: Session;
  terminal?: TerminalHandoffs;
  taskIntervalMs?: number;
  rows?: number;
  columns?: number;
  /** Where the explorer writes its files (T's trail, c's curl command). */
  trailDir?: string;
}

export type OpenScreen = Omit<Mounted, 'session'> & { origin: Origin; services: Services };

/** Mounts the explorer, waits for the index, then opens `kind` with what `params` makes of the origin. */
export async function openScreen<K extends ScreenKind>(
  kind: K,
  params: (origin: Origin, navigator: Navigator) => ScreenParams[K],
  options: ScreenOptions = {},
): Promise<OpenScreen> {
  const session = options.session ?? new Session({ baseUrl: NOWHERE, maxRetries: 0 });
  const services = new Services({
    connection: { session },
    terminal: options.terminal ?? { copy: () => undefined },
    ...(options.taskIntervalMs ? { taskIntervalMs: options.taskIntervalMs } : {}),
    ...(options.trailDir ? { trailDir: options.trailDir } : {}),
  });
  const navigator = new Navigator(services, {
    screens: SCREENS,
    columns: options.columns ?? 100,
    rows: options.rows ?? 30,
    onQuit: () => undefined,
    watchSeconds: 3600,
  });
  const mounted = await mountNavigator(navigator);
  const origin = services.origin();
  await step(async () => {
    navigator.open(kind, params(origin, navigator));
  });
  return { ...mounted, origin, services };
}

/** The form of `operation` (no prefill, no unit), its body checked against the built-in `schema`, on `session`. */
export async function openOperationForm(
  session: Session,
  target: { resource: string; version: string; operation: Operation },
  schema: Record<string, unknown>,
  options: ScreenOptions = {},
): Promise<OpenScreen> {
  const form = createOperationForm({ ...target, prefill: {}, ou: '', bodySchema: schema });
  return openScreen(
    'operation-form',
    (origin, navigator) => ({
      flow: { origin, start: navigator.top()!.id },
      form,
      schema: { schema, source: 'built-in', check: compileBodyCheck(schema) },
    }),
    { ...options, session },
  );
}

/** The kind of screen on top: where a key has taken the explorer. */
export function topKind(screen: OpenScreen): ScreenKind | undefined {
  return screen.navigator.top()?.kind;
}

export const ESC = '\x1b';
export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const BACKSPACE = '\x7f';

/** The text a form's row shows first on screen: the field's name, or what the row is. */
export function rowLabel(row: Row): string {
  switch (row.kind) {
    case 'field':
      return `query ${row.name}`;
    case 'body-field':
      return row.field.name;
    case 'ou':
      return 'OU = ';
    case 'body':
      return 'body JSON';
    case 'submit':
      return '[ preview';
  }
}
