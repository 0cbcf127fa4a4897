/**
 * Bounded concurrency for the server: at most `concurrency` requests run at once, at most
 * `maxQueued` wait; a request beyond both is refused at once (503) instead of queueing without
 * bound while its client times out.
 */
export class Busy extends Error {}

export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw new Busy(`${this.active} requests running and ${this.waiting.length} queued`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Requests running or queued. */
  get load(): number {
    return this.active + this.waiting.length;
  }
}
