import { describe, expect, it } from "vitest";
import { launchProgressLabel, launchProgressPercent, newYorkTime } from "~/common/launch";
import { DEFAULT_TOOL_ORDER, moveTool, normaliseToolOrder } from "~/common/tools";
import { isCrossOriginMutation } from "~/lib/http/security.server";

describe("launch progress", () => {
  it("runs from 2025-08-23 to 2025-12-01, clamped to 0..100 with one decimal", () => {
    expect(launchProgressLabel(Date.parse("2025-01-01T00:00:00Z"))).toBe("0.0% to 100-Day Launch");
    expect(launchProgressPercent(Date.parse("2025-08-23T04:00:00Z"))).toBe(0);
    expect(launchProgressLabel(Date.parse("2025-10-12T04:00:00Z"))).toBe("50.0% to 100-Day Launch");
    expect(launchProgressLabel(Date.parse("2025-12-01T05:00:00Z"))).toBe("100.0% to 100-Day Launch");
    expect(launchProgressLabel(Date.parse("2026-11-22T00:00:00Z"))).toBe("100.0% to 100-Day Launch");
  });
});

describe("New York clock", () => {
  it("shows New York time, including daylight saving", () => {
    expect(newYorkTime(Date.parse("2026-01-15T17:04:05Z"))).toBe("12:04:05 PM");
    expect(newYorkTime(Date.parse("2026-07-15T03:00:09Z"))).toBe("11:00:09 PM");
  });
});

describe("dashboard tool order", () => {
  it("has the 12 tools in docs/screens.md in the default order, then the library", () => {
    expect(DEFAULT_TOOL_ORDER).toEqual([
      "create",
      "assistant",
      "drawing",
      "music",
      "aivideo",
      "videos",
      "image",
      "voices",
      "voicememo",
      "projects",
      "camera",
      "capcut",
      "library",
    ]);
  });

  it("appends the library to an order stored before it existed", () => {
    const stored = [
      "capcut",
      "camera",
      "projects",
      "voicememo",
      "voices",
      "image",
      "videos",
      "aivideo",
      "music",
      "drawing",
      "assistant",
      "create",
    ];
    expect(normaliseToolOrder(stored)).toEqual([...stored, "library"]);
  });

  it("moves a tool and keeps stored orders honest", () => {
    expect(moveTool(["create", "assistant", "drawing"], "drawing", 0)).toEqual(["drawing", "create", "assistant"]);
    const cleaned = normaliseToolOrder(["camera", "bogus", "camera", "create"]);
    expect(cleaned.slice(0, 2)).toEqual(["camera", "create"]);
    expect(cleaned).toHaveLength(13);
    expect(new Set(cleaned).size).toBe(13);
  });
});

describe("cross-origin writes", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://studio.test/api/feedback", { method: "POST", headers: { Host: "studio.test", ...headers } });
  it("refuses another site's Origin and allows our own or none", () => {
    expect(isCrossOriginMutation(post({ Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossOriginMutation(post({ Origin: "null" }))).toBe(true);
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test" }))).toBe(false);
    expect(isCrossOriginMutation(post({}))).toBe(false);
    expect(
      isCrossOriginMutation(new Request("http://studio.test/", { headers: { Origin: "https://evil.example" } })),
    ).toBe(false);
  });
});
