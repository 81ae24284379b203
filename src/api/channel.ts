// A queue between work running concurrently and one reader that takes results in the order they came:
// the fan-outs push events as their requests answer, and hand the reader an async iterable of them.

export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  /** No more items; with an error, the reader gets it after the items already pushed. */
  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (error !== undefined) this.failure = { error };
    this.notify();
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

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
