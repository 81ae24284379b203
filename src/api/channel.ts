// A queue between work running concurrently and one reader that takes results in the order they came:
// the fan-outs push events as their requests answer, and hand the reader an async iterable of them.
// `send` waits while the reader is `highWater` items behind, so that fast sources cannot fill memory
// with pages a slow reader (a pipe, a terminal) has not taken yet.

export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private readonly roomWaiters: (() => void)[] = [];
  private closed = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly highWater = Number.POSITIVE_INFINITY) {}

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  /** Pushes, then waits until the reader is no more than `highWater` items behind (or the channel closed). */
  async send(item: T): Promise<void> {
    this.push(item);
    if (this.closed || this.unread() <= this.highWater) return;
    await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
  }

  /** No more items; with an error, the reader gets it after the items already pushed. */
  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (error !== undefined) this.failure = { error };
    this.notify();
    for (const waiter of this.roomWaiters.splice(0)) waiter();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.head < this.items.length) {
        const item = this.items[this.head]!;
        this.head += 1;
        // Drop what was read now and then, so a long run does not keep every event.
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head);
          this.head = 0;
        }
        while (this.roomWaiters.length > 0 && this.unread() <= this.highWater) this.roomWaiters.shift()!();
        yield item;
      } else if (this.closed) {
        if (this.failure) throw this.failure.error;
        return;
      } else {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    }
  }

  private unread(): number {
    return this.items.length - this.head;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
