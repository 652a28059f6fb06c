import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser } from "./client";

// POST /api/content/{id}/autosave from an API client (a bearer token, no cookie, no Origin) is
// answered at the front door (app/auth/api-door-actions.server.ts, through entry.server.tsx's
// actionsAtTheDoor); a browser's (Origin) still goes through React Router's route. What must hold:
// both answer every outcome alike, status, headers and body, and the door checks what the route does.

/** Headers that differ by nature between two answers: when, how it travelled, who answered. */
const OWN = new Set(["date", "server-timing", "content-length", "transfer-encoding", "connection", "keep-alive"]);
const comparable = (headers: Headers) => [...headers].filter(([name]) => !OWN.has(name));

type Path = "door" | "route";
/** An autosave by either path: the route's is asked as a same-origin browser asks (with Origin). */
async function autosave(path: Path, id: string, token: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}/api/content/${id}/autosave`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(path === "route" ? { Origin: baseUrl() } : {}), ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : null, door: response.headers.get("server-timing") === "door" };
}

describe("POST /api/content/{id}/autosave at the front door", () => {
  it("saves as the route saves: the same item, headers and list afterwards", async () => {
    const person = await newUser("door-autosave");
    const item = (await api("/api/content", { token: person.token, json: { title: "Draft", body: "first" } })).body;
    const byDoor = await autosave("door", item.id, person.token, JSON.stringify({ title: "Draft", body: "by the door", updated_at: item.updated_at }));
    expect(byDoor.door).toBe(true);
    expect(byDoor.status).toBe(200);
    expect(byDoor.json).toMatchObject({ id: item.id, title: "Draft", body: "by the door", pinned: false });
    expect(byDoor.json.updated_at > item.updated_at).toBe(true);
    expect((await api(`/api/content/${item.id}`, { token: person.token })).body).toEqual(byDoor.json);

    const byRoute = await autosave("route", item.id, person.token, JSON.stringify({ title: "Draft", body: "by the route", updated_at: byDoor.json.updated_at }));
    expect(byRoute.door).toBe(false);
    expect(byRoute.status).toBe(200);
    expect(comparable(byDoor.headers)).toEqual(comparable(byRoute.headers));
    expect(Object.keys(byDoor.json)).toEqual(Object.keys(byRoute.json));
    // The list follows a save at the door at once (the content version moves in the same UPDATE).
    const list = await api("/api/content", { token: person.token });
    expect(list.body[0]).toMatchObject({ id: item.id, body: "by the route" });
  });

  it("refuses as the route refuses, byte for byte: 401, 400, 413, 422, 404, 409", async () => {
    const person = await newUser("door-refusals");
    const stranger = await newUser("door-stranger");
    const item = (await api("/api/content", { token: person.token, json: { title: "Kept safe", body: "original" } })).body;
    const cases: [string, string, string, string][] = [
      ["a token that is not live", item.id, "not-a-token", JSON.stringify({ title: "x" })],
      ["not JSON", item.id, person.token, "{title:"],
      ["too large", item.id, person.token, JSON.stringify({ title: "x", body: "y".repeat(2 * 1024 * 1024) })],
      ["no title", item.id, person.token, JSON.stringify({ body: "no title" })],
      ["another person's item", item.id, stranger.token, JSON.stringify({ title: "Stolen" })],
      ["an unknown item", "00000000-0000-4000-8000-000000000000", person.token, JSON.stringify({ title: "x" })],
      ["an older version", item.id, person.token, JSON.stringify({ title: "Stale", updated_at: "2000-01-01T00:00:00.000Z" })],
    ];
    const statuses: number[] = [];
    for (const [what, id, token, body] of cases) {
      const door = await autosave("door", id, token, body);
      const route = await autosave("route", id, token, body);
      expect(door.door, what).toBe(true);
      expect(route.door, what).toBe(false);
      expect(door.status, what).toBe(route.status);
      expect(comparable(door.headers), what).toEqual(comparable(route.headers));
      expect(door.text, what).toBe(route.text);
      expect(typeof door.json.detail, what).toBe("string");
      statuses.push(door.status);
    }
    expect(statuses).toEqual([401, 400, 413, 422, 404, 404, 409]);
    // Nothing was changed by any of them; the 409 carries what is stored.
    const stored = (await api(`/api/content/${item.id}`, { token: person.token })).body;
    expect(stored).toEqual(item);
  });

  it("leaves a browser's (Origin, Sec-Fetch-Site or a cookie) and other methods to the route and its checks", async () => {
    const person = await newUser("door-browser");
    const item = (await api("/api/content", { token: person.token, json: { title: "Browser draft" } })).body;
    const crossSite = await autosave("door", item.id, person.token, JSON.stringify({ title: "From elsewhere" }), { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.door).toBe(false);
    const fetchMetadata = await autosave("door", item.id, person.token, JSON.stringify({ title: "Same site" }), { "Sec-Fetch-Site": "same-origin" });
    expect(fetchMetadata.door).toBe(false);
    expect(fetchMetadata.status).toBe(200);
    const withCookie = await autosave("door", item.id, person.token, JSON.stringify({ title: "With a cookie" }), { Cookie: "theme=dark" });
    expect(withCookie.door).toBe(false);
    expect(withCookie.status).toBe(200);
    const get = await api(`/api/content/${item.id}/autosave`, { token: person.token });
    expect(get.status).toBe(405);
    expect((await api(`/api/content/${item.id}`, { token: person.token })).body.title).toBe("With a cookie");
  });
});
