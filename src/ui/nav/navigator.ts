// The navigator: a stack of screens (overlays on top of the screen they cover), keys and pastes dispatched to
// the top one's bindings and then to the global ones, the unit, and the clock; the place kept per profile is
// its `Places` (places.ts). It holds every screen's state as plain data behind one store that React reads; what
// a screen does with its state is its own module's business, found in the screen set the composition root
// (../registry.ts) hands it.
import type { Key } from '../keys.js';
import { bodyHeight } from '../layout.js';
import type { Origin } from '../services/connection.js';
import type { Services } from '../services/services.js';
import { bindingFor } from './bindings.js';
import { pastedText } from '../paste.js';
import { withPriority } from '../../api/wire/priority.js';
import { DrawPacer } from './pacer.js';
import { noticeOf } from './problems.js';
import { Places } from './places.js';
import type { ErrorInfo } from '../error-info.js';
import type { ScreenSet } from './screen-set.js';
import {
  TEXT,
  type Binding,
  type KeyTable,
  type Navigation,
  type ScreenBase,
  type ScreenContext,
  type ScreenKind,
  type ScreenParams,
  type ScreenQuestion,
} from './screen.js';

export interface Entry {
  id: number;
  kind: ScreenKind;
  state: ScreenBase;
}

export interface NavState {
  stack: readonly Entry[];
  /** The current unit's name, when known. */
  ouName?: string;
  /** A short message about the last thing done ("OU set to Acme Corp"), cleared by the next key. */
  notice?: string;
  size: { columns: number; rows: number };
  now: number;
}

export interface NavigatorOptions {
  /** The screens, from the composition root (src/ui/registry.ts). */
  screens: ScreenSet;
  columns: number;
  rows: number;
  onQuit(): void;
  /** Seconds between ticks (watch mode re-fetches on each). */
  watchSeconds?: number;
}

export class Navigator implements Navigation {
  private state: NavState;
  private readonly listeners = new Set<() => void>();
  private readonly pacer = new DrawPacer(() => {
    for (const listener of this.listeners) listener();
  });
  private readonly places: Places<Entry>;
  private nextId = 1;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** The screens it opens, by kind, and the keys every screen answers to. */
  readonly screens: ScreenSet;

  constructor(
    readonly services: Services,
    private readonly options: NavigatorOptions,
  ) {
    this.screens = options.screens;
    this.places = new Places({
      services: this.services,
      leave: () => ({ stack: this.withoutOverlays(this.state.stack), ouName: this.state.ouName }),
      show: (stack, ouName) => {
        this.state = { ...this.state, stack, ouName };
      },
      setOuName: (ouName) => this.set({ ouName }),
      notify: (message) => this.notify(message),
      openCatalog: () => this.open('catalog', {}),
    });
    this.state = { stack: [], size: { columns: options.columns, rows: options.rows }, now: services.now() };
  }

  // ——— the store React reads ———

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): NavState => this.state;

  private set(change: Partial<NavState>): void {
    this.state = { ...this.state, ...change, now: this.services.now() };
    this.pacer.changed();
  }

  // ——— life cycle ———

  /** Opens the catalog and starts the clock; resolves once the discovery index has been asked for. */
  async start(): Promise<void> {
    this.open('catalog', {});
    void this.services
      .refreshConfig()
      .catch((error: unknown) => this.notify(noticeOf('the config file cannot be read', error)));
    await this.services.catalog().then(
      () => this.places.learnOuName(),
      () => undefined,
    );
    this.timer = setInterval(() => this.tick(), (this.options.watchSeconds ?? 3) * 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.pacer.stop();
    for (const entry of this.state.stack) this.screens.moduleOf(entry.kind).stop?.(entry.state as never);
  }

  resize(columns: number, rows: number): void {
    this.pacer.userActed();
    this.set({ size: { columns, rows } });
    // Each screen keeps its cursor on screen and fills its new room, the one in front first.
    for (const [index, entry] of this.state.stack.entries())
      withPriority(index + 1, () => this.screens.moduleOf(entry.kind).resized?.(this.contextOf(entry.id) as never));
  }

  private tick(): void {
    const top = this.top();
    if (top && this.screens.moduleOf(top.kind).tick)
      this.inFront(() => this.screens.moduleOf(top.kind).tick?.(this.contextOf(top.id) as never));
    // The clock moves whatever the screen did with the tick: ages, the token's time left.
    this.set({});
  }

  /** Work for the screen on top: its requests, now or later, go before those of the screens behind it. */
  private inFront(work: () => void): void {
    withPriority(this.state.stack.length, work);
  }

  // ——— screens ———

  top(): Entry | undefined {
    return this.state.stack[this.state.stack.length - 1];
  }

  /** The screen the header and panel speak of: the top one that is not an overlay. */
  screen(): Entry | undefined {
    return [...this.state.stack].reverse().find((entry) => !this.screens.moduleOf(entry.kind).overlay);
  }

  frontOrigin(): Origin {
    const entry = this.screen();
    return (
      (entry ? this.screens.moduleOf(entry.kind).origin?.(entry.state as never) : undefined) ?? this.services.origin()
    );
  }

  question(): ScreenQuestion | undefined {
    const entry = this.screen();
    return entry ? this.screens.moduleOf(entry.kind).question?.(entry.state as never) : undefined;
  }

  open<K extends ScreenKind>(kind: K, params: ScreenParams[K]): void {
    const module = this.screens.moduleOf(kind);
    const stack = module.overlay ? this.state.stack : this.withoutOverlays(this.state.stack);
    const entry: Entry = { id: this.nextId++, kind, state: module.init(params as never) };
    this.set({ stack: [...stack, entry] });
    this.inFront(() => module.start?.(this.contextOf(entry.id) as never));
  }

  back(): void {
    if (this.state.stack.length > 1) {
      this.set({ stack: this.drop(this.state.stack) });
      this.resume();
    }
  }

  backTo(id: number): void {
    let stack = this.state.stack;
    while (stack.length > 1 && stack[stack.length - 1]!.id !== id && stack.some((entry) => entry.id === id))
      stack = this.drop(stack);
    this.set({ stack });
    this.resume();
  }

  /** Tells the screen now on top that it is shown again. */
  private resume(): void {
    const top = this.top();
    if (top) this.inFront(() => this.screens.moduleOf(top.kind).resumed?.(this.contextOf(top.id) as never));
  }

  home(): void {
    let stack = this.state.stack;
    while (stack.length > 1) stack = this.drop(stack);
    this.set({ stack });
  }

  /** The stack without the overlays on its top, which are told to stop. */
  private withoutOverlays(stack: readonly Entry[]): readonly Entry[] {
    while (stack.length > 0 && this.screens.moduleOf(stack[stack.length - 1]!.kind).overlay) stack = this.drop(stack);
    return stack;
  }

  /** The stack without its top screen, which is told to stop. */
  private drop(stack: readonly Entry[]): readonly Entry[] {
    const top = stack[stack.length - 1];
    if (top) this.screens.moduleOf(top.kind).stop?.(top.state as never);
    return stack.slice(0, -1);
  }

  notify(message: string): void {
    if (message) this.set({ notice: message.split('\n')[0] });
  }

  quit(): void {
    this.options.onQuit();
  }

  readonly keyTables = (): KeyTable[] => this.screens.keyTablesOf(this.screen()?.kind);

  // ——— keys ———

  key(key: Key): void {
    this.pacer.userActed();
    if (key.name === 'char' && key.ctrl && key.char === 'c') return this.quit();
    if (this.state.notice) this.state = { ...this.state, notice: undefined };
    const top = this.top();
    if (!top) return;
    const binding =
      bindingFor(this.screens.moduleOf(top.kind).bindings as never, top.state as never, key) ??
      (this.screens.takesGlobalKeys(top.kind, top.state)
        ? bindingFor(this.screens.globalBindings, top.state, key)
        : undefined);
    if (binding) this.inFront(() => binding.run(this.contextOf(top.id) as never, key));
    else this.set({});
  }

  /**
   * A paste (paste.ts): text for the field in front, never keys. A screen that knows its fields takes it
   * itself; otherwise its printable characters are typed where the screen types them (TEXT), line breaks
   * and control characters dropped. Where no field has the focus, nothing of it is taken.
   */
  paste(text: string): void {
    this.pacer.userActed();
    const top = this.top();
    if (!top) return;
    const module = this.screens.moduleOf(top.kind);
    const ctx = this.contextOf(top.id) as never;
    let taken = false;
    this.inFront(() => {
      if (module.paste) {
        taken = module.paste(ctx, text);
        return;
      }
      for (const char of pastedText(text, false)) {
        const key: Key = { name: 'char', char, ctrl: false };
        const binding = this.top()?.id === top.id ? this.typingBinding(top.kind, this.top()!.state, key) : undefined;
        if (!binding) break;
        binding.run(ctx, key);
        taken = true;
      }
    });
    if (!taken) this.notify('a paste goes into a text field: none has the focus here, so nothing of it was taken');
    else this.set({});
  }

  /** The binding `key` meets on a screen when it types into a text field there (a TEXT one); else undefined. */
  private typingBinding(kind: ScreenKind, state: ScreenBase, key: Key): Binding<ScreenBase> | undefined {
    const binding = bindingFor(this.screens.moduleOf(kind).bindings as readonly Binding<ScreenBase>[], state, key);
    return binding?.keys.includes(TEXT) ? binding : undefined;
  }

  // ——— the unit and the profile ———

  setOu(ou: string | undefined, name?: string): void {
    const { session } = this.services.connection;
    session.setOu(ou);
    const known = this.services.unitName(this.services.connection, ou);
    this.set({ ouName: name && name !== ou ? name : known, notice: ou ? `OU set to ${name ?? ou}` : 'OU cleared' });
    if (ou && !name && !known) void this.places.learnOuName();
    // Each screen reads its unit again in its own place in the limiter's queue.
    for (const [index, entry] of this.state.stack.entries())
      withPriority(index + 1, () =>
        this.screens.moduleOf(entry.kind).ouChanged?.(this.contextOf(entry.id) as never, ou),
      );
  }

  readonly switchProfile = (name: string): Promise<void> => this.places.switchTo(name);
  readonly placesLeft = (): { name: string; baseUrl: string }[] => this.places.left();

  // ——— a screen's handle ———

  /** A screen on the current stack, or on a place left for another profile (its loads still land there). */
  private find(id: number): Entry | undefined {
    for (const stack of [this.state.stack, ...this.places.stacks()]) {
      const entry = stack.find((candidate) => candidate.id === id);
      if (entry) return entry;
    }
    return undefined;
  }

  private patch(id: number, change: Partial<ScreenBase>): void {
    const apply = (stack: readonly Entry[]) =>
      stack.map((entry) => (entry.id === id ? { ...entry, state: { ...entry.state, ...change } } : entry));
    if (this.state.stack.some((entry) => entry.id === id)) return this.set({ stack: apply(this.state.stack) });
    this.places.patch(id, apply);
  }

  private panelError(id: number): ErrorInfo | undefined {
    const stack = this.state.stack;
    const index = stack.findIndex((entry) => entry.id === id);
    const below = (index === -1 ? [] : stack.slice(0, index + 1))
      .reverse()
      .find((entry) => !this.screens.moduleOf(entry.kind).overlay);
    return below?.state.error;
  }

  contextOf(id: number): ScreenContext<ScreenBase> {
    const navigator = this;
    let last = this.find(id)?.state ?? {};
    return {
      id,
      get state() {
        last = navigator.find(id)?.state ?? last;
        return last;
      },
      get alive() {
        return navigator.find(id) !== undefined;
      },
      update(change) {
        const entry = navigator.find(id);
        if (entry) navigator.patch(id, typeof change === 'function' ? change(entry.state) : change);
      },
      nav: this,
      services: this.services,
      get size() {
        return navigator.state.size;
      },
      get now() {
        return navigator.state.now;
      },
      bodyHeight: () =>
        bodyHeight(this.state.size.rows, this.panelError(id), this.state.size.columns, this.state.notice),
    };
  }
}
