// The screens a navigator knows, by kind, and the keys every screen answers to: handed to it by the
// composition root (src/ui/registry.ts), so that nothing in nav/ imports a screen.
import type { Binding, KeyTable, ScreenBase, ScreenKind, ScreenModule, ScreenParams } from './screen.js';

/**
 * A module per kind. A module's state type is its own business (each is checked where it is written);
 * here only what opens it is, so the state is left open.
 */
// biome-ignore lint/suspicious/noExplicitAny: each module's state is its own type; only its params are checked here
export type ScreenTable = { [K in ScreenKind]: ScreenModule<any, ScreenParams[K]> };

export class ScreenSet {
  constructor(
    private readonly table: ScreenTable,
    readonly globalBindings: readonly Binding<unknown>[],
  ) {}

  moduleOf<K extends ScreenKind>(kind: K): ScreenModule<ScreenBase, ScreenParams[K]> {
    return this.table[kind] as unknown as ScreenModule<ScreenBase, ScreenParams[K]>;
  }

  /** The modules in the order the help lists their keys. */
  all(): ScreenModule<ScreenBase, unknown>[] {
    return Object.values(this.table) as unknown as ScreenModule<ScreenBase, unknown>[];
  }

  /** Whether the global keys reach a screen on top: not an overlay's, nor one whose text field has the focus. */
  takesGlobalKeys(kind: ScreenKind, state: ScreenBase): boolean {
    const module = this.moduleOf(kind);
    return !module.overlay && !module.typing?.(state);
  }

  /** The help's key tables for a screen: its own keys first, then the global ones. */
  keyTablesOf(kind: ScreenKind | undefined): KeyTable[] {
    const own = kind
      ? [{ title: this.moduleOf(kind).title, bindings: this.moduleOf(kind).bindings as readonly Binding<never>[] }]
      : [];
    return [...own, { title: 'everywhere', bindings: this.globalBindings }];
  }
}
