import { describe, expect, it } from "vitest";
import { batchedReads } from "../../app/lib/db/batched-reads";

// The exports read bodies and versions a batch at a time (app/lib/db/batched-reads.ts): one read per
// batch, in the order asked, at most one batch held.
describe("batchedReads", () => {
  const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);

  it("runs one read per batch of `size` keys, and a key missing from its batch's answer is undefined", async () => {
    const reads: string[][] = [];
    const valueOf = batchedReads(
      keys,
      async (batch) => {
        reads.push(batch);
        return new Map(batch.filter((key) => key !== "k4").map((key) => [key, key.toUpperCase()]));
      },
      { size: 4 },
    );
    const values = [];
    for (const key of keys) values.push(await valueOf(key));
    expect(values).toEqual(["K0", "K1", "K2", "K3", undefined, "K5", "K6", "K7", "K8", "K9"]);
    expect(reads).toEqual([keys.slice(0, 4), keys.slice(4, 8), keys.slice(8)]);
    expect(await valueOf("unknown")).toBeUndefined();
    expect(reads).toHaveLength(3);
  });

  it("cuts batches by weight: a batch ends once its keys weigh `size`", async () => {
    const reads: string[][] = [];
    const weights: Record<string, number> = { k0: 1, k1: 1, k2: 50, k3: 2, k4: 2 };
    const valueOf = batchedReads(
      keys.slice(0, 5),
      async (batch) => {
        reads.push(batch);
        return new Map(batch.map((key) => [key, weights[key]!]));
      },
      { size: 3, weight: (key) => weights[key]! },
    );
    for (const key of keys.slice(0, 5)) expect(await valueOf(key)).toBe(weights[key]);
    expect(reads).toEqual([
      ["k0", "k1", "k2"],
      ["k3", "k4"],
    ]);
  });
});
