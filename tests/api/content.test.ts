import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser } from "../support/api";

type User = Awaited<ReturnType<typeof newUser>>;

const ITEM_SHAPE = {
  id: expect.any(String),
  title: expect.any(String),
  body: expect.any(String),
  pinned: expect.any(Boolean),
  updated_at: expect.any(String),
};

async function create(user: User, json: unknown) {
  const response = await api("/api/content", { token: user.token, json });
  expect(response.status).toBe(201);
  return response.body as { id: string; title: string; body: string; pinned: boolean; updated_at: string };
}

describe("/api/content", () => {
  let alice: User;
  let bob: User;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newUser("alice"), newUser("bob")]);
  });

  it("401 without a token, or with a bad one, on every call", async () => {
    const calls: [string, string][] = [
      ["GET", "/api/content"],
      ["POST", "/api/content"],
      ["GET", "/api/content/some-id"],
      ["PUT", "/api/content/some-id"],
      ["DELETE", "/api/content/some-id"],
      ["POST", "/api/content/some-id/autosave"],
      ["POST", "/api/content/some-id/pin"],
    ];
    for (const [method, path] of calls) {
      const anonymous = await api(path, {
        method,
        json: method === "GET" || method === "DELETE" ? undefined : { title: "x" },
      });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.detail).toEqual(expect.any(String));
      const forged = await api(path, { method, token: "not-a-token" });
      expect(forged.status, `${method} ${path} forged`).toBe(401);
    }
  });

  it("POST creates (201) with an optional body; GET lists a bare array, newest first", async () => {
    const user = await newUser("list");
    expect((await api("/api/content", { token: user.token })).body).toEqual([]);
    const first = await create(user, { title: "  First  " });
    expect(first).toEqual({ ...ITEM_SHAPE, title: "First", body: "", pinned: false });
    const second = await create(user, { title: "Second", body: "Hello\nworld" });
    expect(second.body).toBe("Hello\nworld");

    const list = await api("/api/content", { token: user.token });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toEqual([second, first]);
    expect(list.headers.get("x-total-count")).toBe("2");
    expect(Object.keys(list.body[0]).sort()).toEqual(["body", "id", "pinned", "title", "updated_at"]);
  });

  it("pin reorders: pinned first, then most recently updated first; pinning keeps updated_at", async () => {
    const user = await newUser("pin");
    const a = await create(user, { title: "a" });
    const b = await create(user, { title: "b" });
    await create(user, { title: "c" });
    const pinned = await api(`/api/content/${a.id}/pin`, { token: user.token, json: { pinned: true } });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toEqual({ ...a, pinned: true });
    const titles = async () =>
      (await api("/api/content", { token: user.token })).body.map((item: { title: string }) => item.title);
    expect(await titles()).toEqual(["a", "c", "b"]);
    await api(`/api/content/${b.id}`, { method: "PUT", token: user.token, json: { title: "b2", body: "" } });
    expect(await titles()).toEqual(["a", "b2", "c"]);
    await api(`/api/content/${a.id}/pin`, { token: user.token, json: { pinned: false } });
    expect(await titles()).toEqual(["b2", "c", "a"]);
    // Paging: the same order, one page at a time, with the total in X-Total-Count.
    const page = await api("/api/content?limit=1&offset=1", { token: user.token });
    expect(page.body.map((item: { title: string }) => item.title)).toEqual(["c"]);
    expect(page.headers.get("x-total-count")).toBe("3");
    const last = await api("/api/content?limit=2&offset=2", { token: user.token });
    expect(last.body.map((item: { id: string }) => item.id)).toEqual([a.id]);
  });

  it("GET, PUT, autosave and DELETE one item", async () => {
    const item = await create(alice, { title: "Mine", body: "v1" });
    const read = await api(`/api/content/${item.id}`, { token: alice.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(item);

    // The docs/screens.md payload (title, body) without updated_at stays valid.
    const put = await api(`/api/content/${item.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Mine 2", body: "v2" },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: item.id, title: "Mine 2", body: "v2", pinned: false });
    expect(put.body.updated_at > item.updated_at).toBe(true);

    const autosave = await api(`/api/content/${item.id}/autosave`, {
      token: alice.token,
      json: { title: "Mine 3", body: "v3" },
    });
    expect(autosave.status).toBe(200);
    expect(autosave.body).toMatchObject({ title: "Mine 3", body: "v3" });
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).body.body).toBe("v3");

    const removed = await api(`/api/content/${item.id}`, { method: "DELETE", token: alice.token });
    expect(removed.status).toBe(200);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).status).toBe(404);
    expect((await api(`/api/content/${item.id}`, { method: "DELETE", token: alice.token })).status).toBe(404);
  });

  it("another user's item is 404 on read, update, autosave, pin and delete, and stays untouched", async () => {
    const item = await create(alice, { title: "Private", body: "secret" });
    const attempts = [
      api(`/api/content/${item.id}`, { token: bob.token }),
      api(`/api/content/${item.id}`, { method: "PUT", token: bob.token, json: { title: "hacked", body: "" } }),
      api(`/api/content/${item.id}/autosave`, { token: bob.token, json: { title: "hacked", body: "" } }),
      api(`/api/content/${item.id}/pin`, { token: bob.token, json: { pinned: true } }),
      api(`/api/content/${item.id}`, { method: "DELETE", token: bob.token }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: "Content not found" });
    }
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).body).toEqual(item);
    expect(
      (await api("/api/content", { token: bob.token })).body.some((row: { id: string }) => row.id === item.id),
    ).toBe(false);
  });

  it("an unknown id is 404, never 500", async () => {
    for (const id of ["does-not-exist", "%00", "x".repeat(500), "' OR 1=1 --"]) {
      const path = `/api/content/${encodeURIComponent(id)}`;
      expect((await api(path, { token: alice.token })).status).toBe(404);
      expect((await api(path, { method: "PUT", token: alice.token, json: { title: "t" } })).status).toBe(404);
      expect((await api(`${path}/autosave`, { token: alice.token, json: { title: "t" } })).status).toBe(404);
      expect((await api(`${path}/pin`, { token: alice.token, json: { pinned: true } })).status).toBe(404);
      expect((await api(path, { method: "DELETE", token: alice.token })).status).toBe(404);
    }
  });

  it("a stale autosave (older updated_at) is refused with 409 and the newer save is kept", async () => {
    const item = await create(alice, { title: "Draft", body: "v1" });
    // The editor saves by hand (based on the version it loaded)...
    const saved = await api(`/api/content/${item.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Draft", body: "v2 by hand", updated_at: item.updated_at },
    });
    expect(saved.status).toBe(200);
    // ...then an autosave based on the older version arrives.
    const stale = await api(`/api/content/${item.id}/autosave`, {
      token: alice.token,
      json: { title: "Draft", body: "v1.5 autosave", updated_at: item.updated_at },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toEqual(expect.any(String));
    const stalePut = await api(`/api/content/${item.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Draft", body: "old tab", updated_at: item.updated_at },
    });
    expect(stalePut.status).toBe(409);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).body.body).toBe("v2 by hand");

    // Based on the current version it goes through.
    const fresh = await api(`/api/content/${item.id}/autosave`, {
      token: alice.token,
      json: { title: "Draft", body: "v3", updated_at: saved.body.updated_at },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.body).toBe("v3");
  });

  it("bad JSON is 400; invalid input is 422 with a detail", async () => {
    const item = await create(alice, { title: "Valid" });
    for (const [method, path] of [
      ["POST", "/api/content"],
      ["PUT", `/api/content/${item.id}`],
      ["POST", `/api/content/${item.id}/autosave`],
      ["POST", `/api/content/${item.id}/pin`],
    ]) {
      const bad = await api(path, {
        method,
        token: alice.token,
        raw: "{not json",
        headers: { "Content-Type": "application/json" },
      });
      expect(bad.status, `${method} ${path}`).toBe(400);
      expect(bad.body).toEqual({ detail: "Request body must be valid JSON" });
    }

    const invalid: [string, string, unknown, string][] = [
      ["POST", "/api/content", {}, "Title is required"],
      ["POST", "/api/content", { title: "   " }, "Title is required"],
      ["POST", "/api/content", { title: 7 }, "Title must be text"],
      ["POST", "/api/content", [], ""],
      ["POST", "/api/content", { title: "x".repeat(201) }, "Title must be at most 200 characters"],
      ["POST", "/api/content", { title: "t", body: "x".repeat(100_001) }, "Body must be at most 100,000 characters"],
      ["PUT", `/api/content/${item.id}`, { body: "no title" }, "Title is required"],
      [
        "PUT",
        `/api/content/${item.id}`,
        { title: "t", updated_at: "not a date" },
        "updated_at must be an ISO-8601 timestamp",
      ],
      ["POST", `/api/content/${item.id}/autosave`, { title: "" }, "Title is required"],
      ["POST", `/api/content/${item.id}/pin`, {}, "pinned is required"],
      ["POST", `/api/content/${item.id}/pin`, { pinned: "yes" }, "pinned must be true or false"],
    ];
    for (const [method, path, json, detail] of invalid) {
      const response = await api(path, { method, token: alice.token, json });
      expect(response.status, `${method} ${path} ${JSON.stringify(json)?.slice(0, 60)}`).toBe(422);
      expect(response.body.detail).toEqual(expect.any(String));
      if (detail) expect(response.body.detail).toBe(detail);
    }
    // A bad page of the list is the request's own mistake: 400 (tests/api/paging.test.ts has them all).
    expect(await api("/api/content?limit=0", { token: alice.token })).toMatchObject({
      status: 400,
      body: { detail: "limit must be at least 1" },
    });
    expect(await api("/api/content?limit=abc", { token: alice.token })).toMatchObject({
      status: 400,
      body: { detail: "limit must be a whole number" },
    });
    // Exactly at the limits is fine.
    const atLimits = await create(alice, { title: "x".repeat(200), body: "y".repeat(100_000) });
    expect(atLimits.body.length).toBe(100_000);
  });

  it("wrong methods are 405, unknown subpaths 404, both JSON", async () => {
    const item = await create(alice, { title: "Methods" });
    expect(
      (await api(`/api/content/${item.id}`, { method: "PATCH", token: alice.token, json: { title: "x" } })).status,
    ).toBe(405);
    expect((await api(`/api/content/${item.id}/pin`, { token: alice.token })).status).toBe(405);
    expect((await api(`/api/content/${item.id}/autosave`, { token: alice.token })).status).toBe(405);
    expect((await api("/api/content", { method: "PUT", token: alice.token, json: {} })).status).toBe(405);
    const unknown = await api(`/api/content/${item.id}/nope`, { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Not found" });
  });

  it("the session cookie works as well as a bearer token", async () => {
    const user = await newUser("cookie");
    const login = await fetch(`${baseUrl()}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: user.email, password: "correct horse battery" }),
      redirect: "manual",
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const created = await api("/api/content", { json: { title: "By cookie" }, headers: { Cookie: cookie } });
    expect(created.status).toBe(201);
    const list = await api("/api/content", { token: user.token });
    expect(list.body.map((item: { title: string }) => item.title)).toEqual(["By cookie"]);
  });
});

describe("content screens over HTTP", () => {
  async function signedIn() {
    const user = await newUser("screens");
    const login = await fetch(`${baseUrl()}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: user.email, password: "correct horse battery" }),
      redirect: "manual",
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { ...user, cookie };
  }
  const page = (path: string, cookie?: string) =>
    fetch(`${baseUrl()}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  const post = (path: string, cookie: string, form: Record<string, string>) =>
    fetch(`${baseUrl()}${path}`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: new URLSearchParams(form),
      redirect: "manual",
    });

  it("need a session: /create and /content/{id} send strangers to /login", async () => {
    for (const path of ["/create", "/content/anything"]) {
      const response = await page(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("an unknown or another user's item shows the load failure with 404", async () => {
    const [alice, bob] = await Promise.all([signedIn(), signedIn()]);
    const item = (await api("/api/content", { token: alice.token, json: { title: "Alice's" } })).body;
    for (const [path, cookie] of [
      ["/content/unknown", alice.cookie],
      [`/content/${item.id}`, bob.cookie],
    ]) {
      const response = await page(path, cookie);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain("⚠️ Failed to load content");
      expect(html).not.toContain("Alice&#x27;s");
    }
    const own = await page(`/content/${item.id}`, alice.cookie);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("No content yet.");
  });

  it("plain-form pin, save and delete are scoped to the owner", async () => {
    const [alice, bob] = await Promise.all([signedIn(), signedIn()]);
    const item = (await api("/api/content", { token: alice.token, json: { title: "Keep", body: "safe" } })).body;
    const pin = await post(`/content/${item.id}`, bob.cookie, { intent: "pin", pinned: "true" });
    expect(pin.status).toBe(302);
    expect(pin.headers.get("location")).toBe("/dashboard");
    const save = await post(`/content/${item.id}?edit=1`, bob.cookie, { intent: "save", title: "Stolen", body: "" });
    expect(save.status).toBe(404);
    const remove = await post(`/content/${item.id}`, bob.cookie, { intent: "delete", confirmed: "1" });
    expect(remove.status).toBe(302);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).body).toEqual(item);

    // The owner's own posts work; a fetcher (enhanced) gets data instead of a redirect.
    const pinned = await post(`/content/${item.id}`, alice.cookie, {
      intent: "pin",
      pinned: "true",
      enhanced: "1",
      redirectTo: "https://evil.example/",
    });
    expect(pinned.status).toBe(200);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).body.pinned).toBe(true);
    const invalid = await post(`/content/${item.id}`, alice.cookie, { intent: "save", title: " ", body: "x" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Title is required");
    const stale = await post(`/content/${item.id}`, alice.cookie, {
      intent: "save",
      title: "Keep",
      body: "old",
      updated_at: "2000-01-01T00:00:00.000Z",
    });
    expect(stale.status).toBe(409);
    const saved = await post(`/content/${item.id}`, alice.cookie, {
      intent: "save",
      title: "Kept",
      body: "new",
      updated_at: item.updated_at,
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/content/${item.id}`);
    // A plain-form delete asks first (docs/screens.md#error-messages): the question, then the confirmed delete.
    const asked = await post(`/content/${item.id}`, alice.cookie, { intent: "delete" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/content/${item.id}?confirm=delete`);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).status).toBe(200);
    const deleted = await post(`/content/${item.id}`, alice.cookie, {
      intent: "delete",
      confirmed: "1",
      redirectTo: "//evil.example/",
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/dashboard");
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).status).toBe(404);
  });

  it("a dashboard row's buttons post their names alone: pin=, unpin=, delete= (then the question)", async () => {
    const [alice, bob] = await Promise.all([signedIn(), signedIn()]);
    const item = (await api("/api/content", { token: alice.token, json: { title: "By name" } })).body;
    const pinnedNow = async () => (await api(`/api/content/${item.id}`, { token: alice.token })).body.pinned;
    // What the row's markup posts, as a browser without JavaScript sends it.
    const html = await (await page("/dashboard", alice.cookie)).text();
    const row = html.slice(html.indexOf(`<form action="/content/${item.id}"`));
    expect(row.slice(0, row.indexOf("</form>"))).toMatch(
      /<button[^>]* name="pin"[^>]*>☆<\/button>.*<button[^>]* name="delete"[^>]*>Delete<\/button>/,
    );

    // Another person's posts change nothing.
    expect((await post(`/content/${item.id}`, bob.cookie, { pin: "" })).status).toBe(302);
    expect(await pinnedNow()).toBe(false);

    const pin = await post(`/content/${item.id}`, alice.cookie, { pin: "" });
    expect(pin.status).toBe(302);
    expect(pin.headers.get("location")).toBe("/dashboard");
    expect(await pinnedNow()).toBe(true);
    const pinnedRow = await (await page("/dashboard", alice.cookie)).text();
    expect(pinnedRow).toMatch(/<button[^>]* name="unpin"[^>]*>★<\/button>/);

    const unpin = await post(`/content/${item.id}`, alice.cookie, { unpin: "", enhanced: "1" });
    expect(unpin.status).toBe(200);
    expect(await pinnedNow()).toBe(false);

    // Delete asks first without JavaScript, as intent=delete does.
    const asked = await post(`/content/${item.id}`, alice.cookie, { delete: "" });
    expect(asked.headers.get("location")).toBe(`/content/${item.id}?confirm=delete`);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).status).toBe(200);
    // An unknown name is still refused, and an explicit intent wins over a button's name.
    expect((await post(`/content/${item.id}`, alice.cookie, { star: "" })).status).toBe(400);
    expect((await post(`/content/${item.id}`, alice.cookie, { intent: "pin", delete: "" })).status).toBe(302);
    expect(await pinnedNow()).toBe(true);
    expect((await api(`/api/content/${item.id}`, { token: alice.token })).status).toBe(200);
  });

  it("the dashboard renders one page of 100 items with a link to the next", async () => {
    const user = await signedIn();
    const empty = await (await page("/dashboard", user.cookie)).text();
    expect(empty).toContain("No content yet. Click Create to get started!");
    for (let i = 0; i < 101; i++) {
      await api("/api/content", { token: user.token, json: { title: `Item ${String(i).padStart(3, "0")}` } });
    }
    const first = await (await page("/dashboard", user.cookie)).text();
    // Each row has one Delete button named after its item.
    expect(first.split('name="delete"').length - 1).toBe(100);
    // Decision 0024: the page of 100 rows carries each row once, in its markup; the hydration data has
    // none of them (a `.data` request has them all), the buttons are named by reference to the row's
    // title, not with a copy of it, and say what they ask for by their name alone. docs/performance.md: what a
    // browser receives (Accept-Encoding: gzip, br) is at most 10 KB.
    const sent = await bytesSent("/dashboard", user.cookie, "gzip, br");
    expect(sent.encoding).toBe("br");
    expect(sent.bytes, "the dashboard's compressed HTML for 100 items").toBeLessThanOrEqual(10 * 1024);
    expect(first.split("Item 050").length - 1, "a title is written once").toBe(1);
    const data = await (await page("/dashboard.data", user.cookie)).text();
    expect(data).toContain("Item 050");
    expect(first).toContain("Item 100");
    expect(first).not.toContain("Item 000<");
    expect(first).toContain("Showing 1–100 of 101");
    // Next carries the cursor of the page's last row (decision 0076); the page without it reads the same rows.
    const nextHref = /href="(\/dashboard\?page=2&amp;cursor=[\w-]+#content)"/.exec(first)?.[1];
    expect(nextHref).toBeDefined();
    const second = await (await page(nextHref!.replace("&amp;", "&").replace("#content", ""), user.cookie)).text();
    expect(second.split('name="delete"').length - 1).toBe(1);
    expect(second).toContain("Item 000<");
    expect(second).toContain("Showing 101–101 of 101");
    const byNumber = await (await page("/dashboard?page=2", user.cookie)).text();
    expect(byNumber).toContain("Item 000<");
    expect(byNumber).toContain("Showing 101–101 of 101");
    // Out-of-range pages show the last page rather than nothing.
    expect(await (await page("/dashboard?page=999", user.cookie)).text()).toContain("Item 000<");
  });
});

/** The bytes of a page as they travel to a browser that accepts `acceptEncoding` (fetch would decode them). */
function bytesSent(
  path: string,
  cookie: string,
  acceptEncoding: string,
): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl()}${path}`,
      { headers: { Cookie: cookie, "Accept-Encoding": acceptEncoding } },
      (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve({ bytes, encoding: response.headers["content-encoding"] }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}
