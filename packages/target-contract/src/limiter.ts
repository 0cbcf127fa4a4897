/**
 * Bounded concurrency for either side of a call: at most `concurrency` calls run at once, at most
 * `maxQueued` wait; a call beyond both is refused at once (`Busy`) instead of queueing without
 * bound. `engine serve` answers `Busy` with 503 BUSY while its client would otherwise time out;
 * the suite's HTTP target queues without bound (`maxQueued` infinite) to keep its requests in flight
 * at `EVAL_TARGET_CONCURRENCY`.
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
