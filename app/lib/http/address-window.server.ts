/**
 * A budget of requests per client address in a fixed window, kept in this instance's memory: for a door
 * anyone may knock on with no account (the shared page, docs/decisions/0070-the-shared-page.md), where a
 * row per request (as login and feedback attempts keep) would let a flood write to the database. Each
 * instance counts its own requests, so behind a balancer of N instances an address gets up to N times the
 * budget; the budget is there to blunt floods, not to meter.
 */
export type WindowAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Past this many addresses, those whose window has ended are dropped (at most once a window). */
const SWEEP_ABOVE = 10_000;

export class AddressWindow {
  private readonly counts = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  /** `limit` is read on every request (the settings may be parsed after this is made). */
  constructor(
    private readonly limit: () => number,
    private readonly windowMs: number,
  ) {}

  /** Counts one request from `address`; refused when it is one more than the budget of its window. */
  take(address: string, now = Date.now()): WindowAnswer {
    this.sweep(now);
    let entry = this.counts.get(address);
    if (!entry || now - entry.start >= this.windowMs) {
      entry = { start: now, count: 0 };
      this.counts.set(address, entry);
    }
    if (entry.count >= this.limit()) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((entry.start + this.windowMs - now) / 1000)) };
    }
    entry.count++;
    return { allowed: true };
  }

  private sweep(now: number) {
    if (this.counts.size <= SWEEP_ABOVE || now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [address, entry] of this.counts) if (now - entry.start >= this.windowMs) this.counts.delete(address);
  }
}
