import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkFloors, floorOf } from "../harness/check-floors.mjs";

describe("the floors of app/ (docs/decisions/0012-floors.md)", () => {
  it("has no import that runs back down the floors", () => {
    const { files, imports, breaches } = checkFloors();
    expect(files).toBeGreaterThan(100);
    expect(imports).toBeGreaterThan(300);
    expect(breaches).toEqual([]);
  });

  it("places each folder on its floor", () => {
    expect(floorOf(path.join("common", "tools.ts"))).toBe("common");
    expect(floorOf(path.join("services", "assistant.server.ts"))).toBe("services");
    expect(floorOf(path.join("routes", "api", "health.ts"))).toBe("doors");
    expect(floorOf("root.tsx")).toBe("doors");
  });
});
