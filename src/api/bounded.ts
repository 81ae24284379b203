// At most N jobs at a time, started in the order asked for: how a fan of requests (an x-ray, names for
// a list's id columns) keeps its own share of the connection small, whatever the session limits besides.

export class Bounded {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`a bound of ${limit} lets nothing run`);
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    // A finished job hands its slot straight to the next one waiting, so the count never goes over.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
