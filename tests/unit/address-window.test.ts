import { describe, expect, it } from "vitest";
import { AddressWindow } from "~/lib/http/address-window.server";

describe("a budget of requests per address (app/lib/http/address-window.server.ts)", () => {
  it("allows the budget in a window, refuses one more with the seconds until the window ends, then allows again", () => {
    const window = new AddressWindow(() => 3, 60_000);
    const start = 1_000_000;
    for (let i = 0; i < 3; i++) expect(window.take("192.0.2.1", start + i)).toEqual({ allowed: true });
    expect(window.take("192.0.2.1", start + 10_000)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    // Another address has its own budget.
    expect(window.take("192.0.2.2", start + 10_000)).toEqual({ allowed: true });
    // A refusal does not count: the next window starts afresh.
    expect(window.take("192.0.2.1", start + 60_000)).toEqual({ allowed: true });
  });

  it("reads the limit on every request", () => {
    let limit = 1;
    const window = new AddressWindow(() => limit, 60_000);
    expect(window.take("a", 0).allowed).toBe(true);
    expect(window.take("a", 1).allowed).toBe(false);
    limit = 2;
    expect(window.take("a", 2).allowed).toBe(true);
  });

  it("forgets the addresses whose window has ended once it holds many", () => {
    const window = new AddressWindow(() => 1, 1_000);
    for (let i = 0; i <= 10_000; i++) window.take(`a${i}`, 0);
    window.take("late", 5_000);
    const held = (window as unknown as { counts: Map<string, unknown> }).counts;
    expect([...held.keys()]).toEqual(["late"]);
  });
});
