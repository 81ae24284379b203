// Answers recently fetched pages from memory, so moving back and forth on screen does not refetch what
// was just seen. Small and least-recently-used, so memory follows what is on screen, not history: at most
// `capacity` entries and, given a weight, at most `budget` of it (16 pages of 1,000 records held 50 MB).

export class FreshnessCache<T> {
  private readonly entries = new Map<string, { value: T; storedAt: number; weight: number }>();
  private weight = 0;

  constructor(
    private readonly windowMs: number,
    private readonly capacity: number = 16,
    private readonly now: () => number = Date.now,
    private readonly limit: { weigh(value: T): number; budget: number } = { weigh: () => 0, budget: 0 },
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.storedAt > this.windowMs) {
      this.weight -= entry.weight;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T): void {
    if (this.windowMs <= 0 || this.capacity <= 0) return;
    this.delete(key);
    const weight = this.limit.weigh(value);
    this.entries.set(key, { value, storedAt: this.now(), weight });
    this.weight += weight;
    // The newest entry stays, whatever it weighs: it is the one on screen.
    while (this.entries.size > this.capacity || (this.weight > this.limit.budget && this.entries.size > 1))
      this.delete(this.entries.keys().next().value as string);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
