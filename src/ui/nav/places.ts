// The place kept per profile: switching the control plane everything goes to, the screens, cursors, pages and
// unit left on the one before kept with its session and given back on return, and the current unit's name
// learnt from the unit list. The navigator holds one and gives it what it needs through `PlaceHost`.
import type { Connection } from '../services/connection.js';
import type { Services } from '../services/services.js';
import { noticeOf } from './problems.js';

/** What the places need of the navigator, whose stacks hold screens of type `E`. */
export interface PlaceHost<E extends { id: number }> {
  readonly services: Services;
  /** What is kept of the current place: its stack, the overlays on top dropped (and told to stop), and unit name. */
  leave(): { stack: readonly E[]; ouName: string | undefined };
  /** Makes a place's stack and unit name the current ones, without drawing (the notice that follows does). */
  show(stack: readonly E[], ouName: string | undefined): void;
  setOuName(name: string): void;
  notify(message: string): void;
  openCatalog(): void;
}

/** Where the user was on one control plane, given back on return. */
interface Place<E> {
  connection: Connection;
  stack: readonly E[];
  ouName?: string;
}

export class Places<E extends { id: number }> {
  private readonly places = new Map<string, Place<E>>();

  constructor(private readonly host: PlaceHost<E>) {}

  /**
   * Makes `name` the control plane everything goes to. The place left (screens, cursors, pages, OU) is
   * kept with its session, and a profile visited before is given back as it was left.
   */
  async switchTo(name: string): Promise<void> {
    const { host } = this;
    const current = host.services.connection;
    if (current.offline)
      return host.notify(
        `${current.offline}: this explorer answers from the trail only; start dpx without --offline to go online`,
      );
    if (name === current.profile) return host.notify(`already on profile ${name}`);
    let place = this.places.get(name);
    if (!place) {
      if (!host.services.profiles) return host.notify('no config file with profiles: add one with dpx profile add');
      host.notify(`connecting to profile ${name}…`);
      try {
        place = { connection: await host.services.profiles.connect(name), stack: [] };
      } catch (error) {
        return host.notify(noticeOf(`cannot switch to ${name}`, error));
      }
    }
    const { stack, ouName } = host.leave();
    this.places.set(current.profile ?? '', { connection: current, stack, ...(ouName ? { ouName } : {}) });
    this.places.delete(name);
    host.services.connection = place.connection;
    const { session } = place.connection;
    host.show(place.stack, place.ouName);
    host.notify(`profile ${name} · ${session.baseUrl}${session.readOnly ? ' · read-only' : ' · writes allowed'}`);
    if (place.stack.length === 0) {
      host.openCatalog();
      await host.services.catalog(place.connection).then(
        () => this.learnOuName(),
        () => undefined,
      );
    }
  }

  /** Asks the current control plane for its units, to show the current one by its name. */
  async learnOuName(): Promise<void> {
    const { services } = this.host;
    const connection = services.connection;
    const ou = connection.session.ou;
    if (!ou) return;
    try {
      await services.units(connection);
      const name = services.unitName(connection, ou);
      if (name && connection.session.ou === ou && services.connection === connection) this.host.setOuName(name);
    } catch {
      // The OU stays shown by its id; the picker reports the failure if the user opens it.
    }
  }

  /** The profiles left for another one, by name: the palette offers to go back to them. */
  left(): { name: string; baseUrl: string }[] {
    return [...this.places].map(([name, place]) => ({ name, baseUrl: place.connection.session.baseUrl }));
  }

  /** The stacks of the places left: their screens' loads still land there. */
  stacks(): (readonly E[])[] {
    return [...this.places.values()].map((place) => place.stack);
  }

  /** Changes the place-left stack that holds screen `id`, if one does. */
  patch(id: number, apply: (stack: readonly E[]) => readonly E[]): void {
    for (const place of this.places.values())
      if (place.stack.some((entry) => entry.id === id)) place.stack = apply(place.stack);
  }
}
