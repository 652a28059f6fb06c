import path from "node:path";
import { describe, expect, it } from "vitest";

// scripts/server.mjs is plain JavaScript (no types): imported by a computed path. The front door
// finds the URL of each answer from memory in the build's route tree (routes.ts stays the one URL map).
const { answersFromMemoryByPath, actionsAtTheDoorByPath } = (await import(path.resolve("scripts/server.mjs"))) as {
  answersFromMemoryByPath: (routes: Record<string, unknown>, answers: Record<string, unknown>) => Map<string, unknown>;
  actionsAtTheDoorByPath: (
    routes: Record<string, unknown>,
    actions: Record<string, unknown>,
  ) => { ids: string[]; match: (rawPath: string) => { action: unknown; params: Record<string, string> } | null };
};

const routes = {
  root: { id: "root", path: "" },
  "routes/app-shell": { id: "routes/app-shell", parentId: "root" },
  "routes/api/content": { id: "routes/api/content", parentId: "root", path: "api/content" },
  "routes/api/content.item": { id: "routes/api/content.item", parentId: "root", path: "api/content/:id" },
  "routes/api/content.autosave": { id: "routes/api/content.autosave", parentId: "root", path: "api/content/:id/autosave" },
  "routes/library": { id: "routes/library", parentId: "routes/app-shell", path: "library" },
  "routes/files": { id: "routes/files", parentId: "root", path: "files/*" },
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

describe("actionsAtTheDoorByPath (scripts/server.mjs)", () => {
  it("matches its route's path with its params, decoded as React Router decodes them, and nothing else", () => {
    const autosave = () => null;
    const item = () => null;
    const door = actionsAtTheDoorByPath(routes, { "routes/api/content.autosave": autosave, "routes/api/content.item": item });
    expect(door.ids).toEqual(["routes/api/content.autosave", "routes/api/content.item"]);
    expect(door.match("/api/content/abc-123/autosave")).toEqual({ action: autosave, params: { id: "abc-123" } });
    expect(door.match("/api/content/abc-123/autosave/")).toEqual({ action: autosave, params: { id: "abc-123" } });
    expect(door.match("/api/content/a%20b%2Fc")).toEqual({ action: item, params: { id: "a b/c" } });
    expect(door.match("/api/content/abc/autosave/more")).toBeNull();
    expect(door.match("/api/content//autosave")).toBeNull();
    expect(door.match("/api/contents/abc/autosave")).toBeNull();
    expect(door.match("/api/content/%E0%A4%A/autosave")).toBeNull();
  });

  it("refuses a splat route, or no such route, when the server starts", () => {
    expect(() => actionsAtTheDoorByPath(routes, { "routes/files": () => null })).toThrow(/not a route with a plain path/);
    expect(() => actionsAtTheDoorByPath(routes, { "routes/gone": () => null })).toThrow(/not a route with a plain path/);
  });
});
