/** In-memory records of one region. Timestamps are kept as epoch milliseconds and formatted on the way out. */

export type StoredRecord = { id: string } & Record<string, unknown>;

export class Collection {
  /** Newest first: the order lists are served in. */
  readonly items: StoredRecord[] = [];
  private readonly byId = new Map<string, StoredRecord>();

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
  }

  remove(id: string): boolean {
    const record = this.byId.get(id);
    if (!record) return false;
    this.byId.delete(id);
    this.items.splice(this.items.indexOf(record), 1);
    return true;
  }
}

export class Store {
  private readonly collections = new Map<string, Collection>();
  /** Each organizational unit's id mapped to the ids of itself and all its descendants. */
  readonly ouSubtrees = new Map<string, Set<string>>();

  constructor(records: Record<string, StoredRecord[]>) {
    for (const [name, list] of Object.entries(records)) this.collections.set(name, new Collection(list));
    const units = records['organizational-units'] ?? [];
    for (const unit of units) {
      const subtree = new Set<string>([unit.id]);
      let grew = true;
      while (grew) {
        grew = false;
        for (const other of units) {
          if (!subtree.has(other.id) && typeof other['parent_id'] === 'string' && subtree.has(other['parent_id'])) {
            subtree.add(other.id);
            grew = true;
          }
        }
      }
      this.ouSubtrees.set(unit.id, subtree);
    }
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
