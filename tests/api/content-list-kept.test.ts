import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";

// GET /api/content is serialised once per content version and answered from memory until one of the
// person's items changes (app/models/content/content-list.server.ts). What must hold: every change, by any
// path, shows in the next answer; one person never gets another's list; each page, limit and search
// is kept apart; bad input is still refused.

type Item = { id: string; title: string; body: string; pinned: boolean; updated_at: string };

async function list(token: string, query = "") {
  const response = await api<Item[]>(`/api/content${query}`, { token });
  expect(response.status).toBe(200);
  return {
    items: response.body,
    total: Number(response.headers.get("x-total-count")),
    timing: response.headers.get("server-timing"),
  };
}

describe("GET /api/content kept between changes", () => {
  let owner: Awaited<ReturnType<typeof newUser>>;
  let other: Awaited<ReturnType<typeof newUser>>;
  let firstId: string;

  beforeAll(async () => {
    owner = await newUser("list-kept");
    other = await newUser("list-kept-other");
    for (const title of ["Garden plan", "Kite design", "Owl story"]) {
      const created = await api("/api/content", {
        token: owner.token,
        json: { title, body: `All about the ${title.toLowerCase()}` },
      });
      expect(created.status).toBe(201);
      firstId ??= created.body.id;
    }
    await api("/api/content", { token: other.token, json: { title: "Other person secret plans", body: "not yours" } });
  });

  it("answers the same list again from memory, byte for byte, with its total", async () => {
    const first = await list(owner.token);
    const second = await list(owner.token);
    expect(second.timing).toBe('list;desc="kept"');
    expect(second.items).toEqual(first.items);
    expect(second.total).toBe(3);
    expect(second.items.map((item) => item.title)).toEqual(["Owl story", "Kite design", "Garden plan"]);
    expect(second.items[0].body).toBe("All about the owl story");
  });

  it("shows every change at once: create, autosave, rename, pin by API and by form, delete", async () => {
    await list(owner.token);
    const created = await api("/api/content", { token: owner.token, json: { title: "Fresh idea" } });
    let now = await list(owner.token);
    expect(now.timing).toBe('list;desc="read"');
    expect(now.items[0].title).toBe("Fresh idea");
    expect(now.total).toBe(4);

    await api(`/api/content/${firstId}/autosave`, {
      method: "POST",
      token: owner.token,
      json: { title: "Garden plan", body: "Autosaved words" },
    });
    now = await list(owner.token);
    expect(now.items.find((item) => item.id === firstId)?.body).toBe("Autosaved words");

    await api(`/api/content/${firstId}`, {
      method: "PUT",
      token: owner.token,
      json: { title: "Garden plan, renamed", body: "Autosaved words" },
    });
    expect((await list(owner.token)).items.find((item) => item.id === firstId)?.title).toBe("Garden plan, renamed");

    await api(`/api/content/${firstId}/pin`, { method: "POST", token: owner.token, json: { pinned: true } });
    now = await list(owner.token);
    expect(now.items[0]).toMatchObject({ id: firstId, pinned: true });

    // The dashboard's no-JavaScript form writes through another door: the answer follows it too.
    const cookie = await signInWithForm(owner.email);
    const unpin = await fetch(`${baseUrl()}/content/${firstId}`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: new URLSearchParams({ intent: "unpin" }),
      redirect: "manual",
    });
    expect(unpin.status).toBe(302);
    expect((await list(owner.token)).items.find((item) => item.id === firstId)?.pinned).toBe(false);

    await api(`/api/content/${created.body.id}`, { method: "DELETE", token: owner.token });
    now = await list(owner.token);
    expect(now.items.map((item) => item.id)).not.toContain(created.body.id);
    expect(now.total).toBe(3);
    expect((await list(owner.token)).timing).toBe('list;desc="kept"');
  });

  it("never answers one person with another's list", async () => {
    await list(owner.token);
    const theirs = await list(other.token);
    expect(theirs.items.map((item) => item.title)).toEqual(["Other person secret plans"]);
    const again = await list(other.token);
    expect(again.timing).toBe('list;desc="kept"');
    expect(again.items.map((item) => item.title)).toEqual(["Other person secret plans"]);
    expect((await list(owner.token)).items.map((item) => item.title)).not.toContain("Other person secret plans");
  });

  it("keeps each page, limit and search apart, and a search follows changes too", async () => {
    const all = (await list(owner.token)).items.map((item) => item.id);
    expect((await list(owner.token, "?limit=1")).items.map((item) => item.id)).toEqual(all.slice(0, 1));
    expect((await list(owner.token, "?limit=1&offset=1")).items.map((item) => item.id)).toEqual(all.slice(1, 2));
    expect((await list(owner.token, "?limit=1&offset=1")).timing).toBe('list;desc="kept"');

    const kites = await list(owner.token, "?q=kite");
    expect(kites.items.map((item) => item.title)).toEqual(["Kite design"]);
    expect(kites.total).toBe(1);
    await api("/api/content", { token: owner.token, json: { title: "Second kite", body: "a box kite" } });
    const more = await list(owner.token, "?q=kite");
    expect(more.items.map((item) => item.title).sort()).toEqual(["Kite design", "Second kite"]);
    expect(more.total).toBe(2);
  });

  it("still refuses bad input before anything is kept or read", async () => {
    const bad = await api("/api/content?limit=abc", { token: owner.token });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.detail).toBe("string");
    const stranger = await api("/api/content", { token: "not-a-token" });
    expect(stranger.status).toBe(401);
  });
});

// Bearer clients and browsers take the same route (routes.ts -> app/routes/api/content.ts); they
// differ only in how the person is found. The kept list is data inside the loader, after both checks.
describe("GET /api/content for bearer clients and browsers alike", () => {
  it("checks the token on every answer: a token revoked after the list was kept gets 401, not the list", async () => {
    const person = await newUser("list-door-revoked");
    await api("/api/content", { token: person.token, json: { title: "Private diary" } });
    await list(person.token);
    expect((await list(person.token)).timing).toBe('list;desc="kept"');
    const logout = await api("/api/auth/logout", { token: person.token, json: { refresh_token: person.refreshToken } });
    expect(logout.status).toBe(200);
    const after = await api("/api/content", { token: person.token });
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe("Invalid or expired access token");
    expect(JSON.stringify(after.body)).not.toContain("Private diary");
  });

  it("answers the session cookie the same kept list as the token, and refuses a bad query for both", async () => {
    const owner = await newUser("list-door-cookie");
    await api("/api/content", { token: owner.token, json: { title: "Seed list" } });
    const cookie = await signInWithForm(owner.email);
    await list(owner.token);
    // The cookie alone is the session: the same loader answers it from the same kept list.
    const withCookie = await fetch(`${baseUrl()}/api/content`, { headers: { Cookie: cookie } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("server-timing")).toBe('list;desc="kept"');
    expect(((await withCookie.json()) as Item[]).map((item) => item.id)).toEqual(
      (await list(owner.token)).items.map((item) => item.id),
    );
    const refused = await api("/api/content?limit=0", { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe("limit must be at least 1");
    const refusedForCookie = await fetch(`${baseUrl()}/api/content?limit=0`, { headers: { Cookie: cookie } });
    expect(refusedForCookie.status).toBe(400);
  });
});
