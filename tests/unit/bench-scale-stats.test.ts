import { describe, expect, it } from "vitest";
import { isFlat, median, summarize, trimmedMean, turnOrder } from "../../bench/scale-stats.mjs";

// `npm run bench -- scale` judges a row flat from many short turns by pairs: these are its sums.

type Side = "small" | "large";
const turnsOf = (order: string[], values: (side: Side, index: number) => number[]) =>
  order.map((side, index) => ({ side, each: values(side as Side, index) }));

describe("the scale bench's order of turns", () => {
  it("pairs one turn of each side, ABBA, from the side given", () => {
    expect(turnOrder(3)).toEqual(["small", "large", "large", "small", "small", "large"]);
    expect(turnOrder(2, "large")).toEqual(["large", "small", "small", "large"]);
  });

  it("runs each side as often, and never one side three times in a row", () => {
    const order = turnOrder(25);
    expect(order.filter((side) => side === "small")).toHaveLength(25);
    expect(order.filter((side) => side === "large")).toHaveLength(25);
    expect(order.join(" ")).not.toMatch(/(small small small|large large large)/);
  });
});

describe("the scale bench's sums", () => {
  it("takes the middle, the middle two's mean, and nothing of an empty list", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("trims the same share from both ends, never a handful to nothing", () => {
    const values = [...Array.from({ length: 18 }, () => 2), 0, 100];
    expect(trimmedMean(values, 0.05)).toBe(2);
    expect(trimmedMean([1, 2, 90], 0.05)).toBe(31);
  });

  it("pairs each small turn with its large one and reports the spread of their ratios", () => {
    const turns = turnsOf(turnOrder(3), (side, index) =>
      side === "small" ? [2, 2] : [2 + index / 10, 2 + index / 10],
    );
    const summary = summarize(turns);
    expect(summary.pairRatios.map((r) => +r.toFixed(3))).toEqual([1.05, 1.1, 1.25]);
    expect(summary.medianRatio).toBeCloseTo(1.1, 6);
    expect(summary.spread.map((r) => +r.toFixed(3))).toEqual([1.05, 1.25]);
    expect(summary.small).toMatchObject({ cpu: 2, requests: 6 });
    expect(summary.ratio).toBeCloseTo(summary.large.cpu / 2, 6);
  });

  it("keeps the rare slow reading out of the median and the trimmed mean, but not out of the totals", () => {
    // Forty pairs of four requests at 2 ms; one large reading of 120 ms (a collection on V8's helper threads).
    const turns = turnsOf(turnOrder(40), (side, index) =>
      side === "large" && index === 5 ? [120, 2, 2, 2] : [2, 2, 2, 2],
    );
    const summary = summarize(turns);
    expect(summary.ratio).toBeGreaterThan(1.3);
    expect(summary.trimmedRatio).toBe(1);
    expect(summary.medianRatio).toBe(1);
    expect(isFlat(summary, 1.3)).toBe(true);
  });

  it("finds a cost the large person pays in one request out of eight, which the median of the pairs misses", () => {
    // One large turn in four holds two dear requests: 30 pairs of 40 compare alike, so their median is 1.
    const turns = turnsOf(turnOrder(40), (side, index) =>
      side === "large" && index % 8 === 1 ? [2, 2, 20, 20] : [2, 2, 2, 2],
    );
    const summary = summarize(turns);
    expect(summary.medianRatio).toBe(1);
    expect(summary.trimmedRatio).toBeCloseTo(3.5 / 2, 6);
    expect(isFlat(summary, 1.3)).toBe(false);
  });

  it("is not flat when every large request costs more", () => {
    const turns = turnsOf(turnOrder(10), (side) => (side === "large" ? [3, 3] : [2, 2]));
    const summary = summarize(turns);
    expect(summary.medianRatio).toBe(1.5);
    expect(summary.trimmedRatio).toBe(1.5);
    expect(isFlat(summary, 1.3)).toBe(false);
  });

  it("refuses a pair of two turns of one side", () => {
    expect(() => summarize(turnsOf(["small", "small"], () => [1]))).toThrow(/one of each side/);
  });
});
