/**
 * A small seeded generator (sfc32): the same seed gives the same data on every machine and Node version,
 * which Math.random cannot promise.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A uniform float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Picks by relative weight; `weightOf` reads each item's weight. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    const total = items.reduce((sum, item) => sum + weightOf(item), 0);
    let roll = this.next() * total;
    for (const item of items) {
      roll -= weightOf(item);
      if (roll < 0) return item;
    }
    return this.pick(items);
  }

  /** A version-4-shaped UUID drawn from this generator, as one flat string (cheap to hash and store). */
  uuid(): string {
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) {
      if (i === 8 || i === 12 || i === 16 || i === 20) codes.push(DASH);
      let nibble = Math.floor(this.next() * 16);
      if (i === 12) nibble = 4;
      if (i === 16) nibble = (nibble & 0x3) | 0x8;
      codes.push(HEX_DIGITS[nibble] ?? ZERO);
    }
    return String.fromCharCode(...codes);
  }
}

const DASH = '-'.charCodeAt(0);
const ZERO = '0'.charCodeAt(0);
const HEX_DIGITS = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
