import path from "node:path";
import { describe, expect, it } from "vitest";

// scripts/server.mjs is plain JavaScript (no types): imported by a computed path. The front door
// finds the URL of each answer from memory in the build's route tree (routes.ts stays the one URL map).
const { answersFromMemoryByPath } = (await import(path.resolve("scripts/server.mjs"))) as {
  answersFromMemoryByPath: (routes: Record<string, unknown>, answers: Record<string, unknown>) => Map<string, unknown>;
};

const routes = {
  root: { id: "root", path: "" },
  "routes/app-shell": { id: "routes/app-shell", parentId: "root" },
  "routes/api/content": { id: "routes/api/content", parentId: "root", path: "api/content" },
  "routes/api/content.item": { id: "routes/api/content.item", parentId: "root", path: "api/content/:id" },
  "routes/library": { id: "routes/library", parentId: "routes/app-shell", path: "library" },
};

describe("answersFromMemoryByPath (scripts/server.mjs)", () => {
  it("puts each answer at its route's full path, through layout routes without a path", () => {
    const list = () => null;
    const library = () => null;
    const byPath = answersFromMemoryByPath(routes, { "routes/api/content": list, "routes/library": library });
    expect([...byPath.keys()].sort()).toEqual(["/api/content", "/library"]);
    expect(byPath.get("/api/content")).toBe(list);
    expect(byPath.get("/library")).toBe(library);
  });

  it("refuses a route with a parameter in its path, or no such route, when the server starts", () => {
    expect(() => answersFromMemoryByPath(routes, { "routes/api/content.item": () => null })).toThrow(/not a route with a fixed path/);
    expect(() => answersFromMemoryByPath(routes, { "routes/gone": () => null })).toThrow(/not a route with a fixed path/);
  });
});
