/** In-memory records of one region. Timestamps are kept as epoch milliseconds and formatted on the way out. */

export type StoredRecord = { id: string } & Record<string, unknown>;

export class Collection {
  /** Newest first: the order lists are served in. */
  readonly items: StoredRecord[] = [];
  private readonly byId = new Map<string, StoredRecord>();
  /** Grows whenever a record is added, removed or rewritten: what was derived from the items is stale. */
  version = 0;

  constructor(records: StoredRecord[] = []) {
    for (const record of records) {
      this.items.push(record);
      this.byId.set(record.id, record);
    }
  }

  get(id: string): StoredRecord | undefined {
    return this.byId.get(id);
  }

  addNewest(record: StoredRecord): void {
    this.items.unshift(record);
    this.byId.set(record.id, record);
    this.version++;
  }

  remove(id: string): boolean {
    const record = this.byId.get(id);
    if (!record) return false;
    this.byId.delete(id);
    this.items.splice(this.items.indexOf(record), 1);
    this.version++;
    return true;
  }

  /** A record was rewritten in place (its unit may have moved). */
  touch(): void {
    this.version++;
  }
}

/** The ids of `tops` and of every unit below them, by the units' `parent_id`. */
export function subtreeOf(units: readonly { id: string; parent_id?: unknown }[], tops: readonly string[]): Set<string> {
  const subtree = new Set(tops);
  let grew = true;
  while (grew) {
    grew = false;
    for (const unit of units) {
      if (!subtree.has(unit.id) && typeof unit.parent_id === 'string' && subtree.has(unit.parent_id)) {
        subtree.add(unit.id);
        grew = true;
      }
    }
  }
  return subtree;
}

export class Store {
  private readonly collections = new Map<string, Collection>();
  /** Each organizational unit's id mapped to the ids of itself and all its descendants. */
  readonly ouSubtrees = new Map<string, Set<string>>();
  private readonly scoped = new Map<
    string,
    { version: number; field: string; lists: Map<ReadonlySet<string>, StoredRecord[]> }
  >();
  private readonly visible = new Map<
    string,
    { version: number; field: string; hidden: ReadonlySet<string>; items: StoredRecord[] }
  >();

  constructor(records: Record<string, StoredRecord[]>) {
    for (const [name, list] of Object.entries(records)) this.collections.set(name, new Collection(list));
    const units = records['organizational-units'] ?? [];
    for (const unit of units) this.ouSubtrees.set(unit.id, subtreeOf(units, [unit.id]));
  }

  /**
   * The records of a collection whose `field` names a unit of `scope` (a unit's subtree, as in
   * `ouSubtrees`), in list order. Every unit's share is built in one pass over the records and kept until
   * the collection changes, so that a unit's list (asked per value by a count) filters its own records,
   * not every record of the region: a count matrix over 266 units asks thousands of lists.
   */
  inScope(name: string, field: string, scope: ReadonlySet<string>): readonly StoredRecord[] {
    const collection = this.collection(name);
    let built = this.scoped.get(name);
    if (!built || built.version !== collection.version || built.field !== field) {
      const holders = new Map<string, StoredRecord[][]>();
      const lists = new Map<ReadonlySet<string>, StoredRecord[]>();
      for (const subtree of this.ouSubtrees.values()) {
        const list: StoredRecord[] = [];
        lists.set(subtree, list);
        for (const unit of subtree) holders.set(unit, [...(holders.get(unit) ?? []), list]);
      }
      for (const record of collection.items)
        for (const list of holders.get(record[field] as string) ?? []) list.push(record);
      built = { version: collection.version, field, lists };
      this.scoped.set(name, built);
    }
    return built.lists.get(scope) ?? collection.items.filter((record) => scope.has(record[field] as string));
  }

  /**
   * The records of a collection whose `field` names none of the `hidden` units, in list order: what a
   * request without a unit sees where some tenants are hidden from it. Kept until the collection changes.
   */
  outside(name: string, field: string, hidden: ReadonlySet<string>): readonly StoredRecord[] {
    const collection = this.collection(name);
    const kept = this.visible.get(name);
    if (kept && kept.version === collection.version && kept.field === field && kept.hidden === hidden)
      return kept.items;
    const items = collection.items.filter((record) => !hidden.has(record[field] as string));
    this.visible.set(name, { version: collection.version, field, hidden, items });
    return items;
  }

  collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new Collection();
      this.collections.set(name, collection);
    }
    return collection;
  }
}
