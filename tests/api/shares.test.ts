import { afterAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";
import { PNG_BYTES } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";

/**
 * Share links' API (docs/api.md#share-links, docs/decisions/0069, 0090): POST /api/shares makes a link to
 * one of the person's content pieces, library files or projects; GET lists the live ones newest first, a
 * page at a time by cursor; DELETE revokes one. Another person's target or link is 404, bad input 400, no
 * sign-in 401, a personal API token 403; past SHARES_MAX_PER_PERSON live links 409; SHARING=off refuses
 * new links (403) and keeps the list and Revoke. Opening links (/s/) is the public page's, tested with it;
 * the exact view count under concurrency is tests/unit/shares.test.ts's, on both engines.
 */
type User = Awaited<ReturnType<typeof newUser>>;

const SHARE = {
  id: expect.any(String),
  url: expect.stringMatching(/\/s\/[A-Za-z0-9_-]{43}$/),
  kind: expect.any(String),
  target_id: expect.any(String),
  title: expect.any(String),
  expires_at: expect.toSatisfy((value: unknown) => value === null || typeof value === "string"),
  max_views: expect.toSatisfy((value: unknown) => value === null || typeof value === "number"),
  views: 0,
  created_at: expect.any(String),
  state: "active",
};

async function newContent(user: User, title = "Shared text", server = baseUrl()) {
  const response = await api("/api/content", { token: user.token, json: { title, body: "Hello" }, server });
  expect(response.status).toBe(201);
  return response.body as { id: string };
}

async function newImage(user: User) {
  const form = new FormData();
  form.append("kind", "photo");
  form.append("file", new Blob([new Uint8Array(PNG_BYTES)], { type: "image/png" }), "shared.png");
  const response = await api("/api/library/upload", { raw: form, token: user.token });
  expect(response.status).toBe(201);
  return response.body as { id: string };
}

async function newProject(user: User) {
  const response = await api("/api/project/create", { token: user.token, json: { title: "Shared film" } });
  expect(response.status).toBe(201);
  return response.body as { id: string };
}

const share = (user: User, json: unknown, server = baseUrl()) =>
  api("/api/shares", { token: user.token, json, server });

const PERSONAL_TOKEN_DETAIL = "Personal API tokens cannot make, list or end share links: sign in to do this.";
const limitDetail = (count: number) =>
  `One person may have at most ${count} live share links: end one before making another.`;

/** The next page's path a list answer names (`Link: <…>; rel="next"`), or null on the last page. */
const nextOf = (headers: Headers) => /<([^>]+)>;\s*rel="next"/.exec(headers.get("link") ?? "")?.[1] ?? null;

/** `count` links to one content piece, made `batch` at a time. */
async function manyLinks(user: User, id: string, count: number, batch = 25, server = baseUrl()) {
  const statuses: number[] = [];
  for (let made = 0; made < count; made += batch) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(batch, count - made) }, () => share(user, { kind: "content", id }, server)),
    );
    statuses.push(...answers.map((answer) => answer.status));
  }
  return statuses;
}

describe("/api/shares", () => {
  it("POST makes a link to a content piece, a file or a project (201 with every field)", async () => {
    const alice = await newUser("shares");
    const item = await newContent(alice);
    const made = await share(alice, { kind: "content", id: item.id, expires_in_hours: 24, max_views: 10 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      ...SHARE,
      kind: "content",
      target_id: item.id,
      title: "Shared text",
      expires_at: expect.any(String),
      max_views: 10,
    });
    expect(made.body.url.startsWith(`${baseUrl()}/s/`)).toBe(true);
    expect(Date.parse(made.body.expires_at) - Date.parse(made.body.created_at)).toBe(24 * 3_600_000);

    const image = await newImage(alice);
    const file = await share(alice, { kind: "file", id: image.id });
    expect(file.status).toBe(201);
    expect(file.body).toEqual({
      ...SHARE,
      kind: "file",
      target_id: image.id,
      title: "shared.png",
      expires_at: null,
      max_views: null,
    });
    const project = await newProject(alice);
    const bundle = await share(alice, { kind: "project", id: project.id, expires_in_hours: null, max_views: null });
    expect(bundle.status).toBe(201);
    expect(bundle.body).toMatchObject({ kind: "project", target_id: project.id, title: "Shared film" });
  });

  it("GET lists the person's live links newest first; DELETE revokes one (204), then it is 404", async () => {
    const alice = await newUser("shares");
    const item = await newContent(alice);
    const first = (await share(alice, { kind: "content", id: item.id })).body;
    const second = (await share(alice, { kind: "content", id: item.id, max_views: 2 })).body;
    const listed = await api("/api/shares", { token: alice.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ shares: [second, first] });

    const revoked = await api(`/api/shares/${second.id}`, { method: "DELETE", token: alice.token });
    expect(revoked.status).toBe(204);
    expect((await api("/api/shares", { token: alice.token })).body.shares).toEqual([first]);
    const again = await api(`/api/shares/${second.id}`, { method: "DELETE", token: alice.token });
    expect(again).toMatchObject({ status: 404, body: { detail: "Share link not found" } });
    expect((await api(`/api/shares/${first.id}`, { token: alice.token })).status).toBe(405);
  });

  it("another person's target or link is 404, and their list stays their own", async () => {
    const alice = await newUser("shares");
    const bob = await newUser("shares");
    const item = await newContent(alice);
    const image = await newImage(alice);
    const project = await newProject(alice);
    for (const [kind, id, detail] of [
      ["content", item.id, "Content not found"],
      ["file", image.id, "File not found"],
      ["project", project.id, "Project not found"],
    ]) {
      expect(await share(bob, { kind, id })).toMatchObject({ status: 404, body: { detail } });
    }
    const link = (await share(alice, { kind: "content", id: item.id })).body;
    expect((await api(`/api/shares/${link.id}`, { method: "DELETE", token: bob.token })).status).toBe(404);
    expect((await api("/api/shares", { token: bob.token })).body.shares).toEqual([]);
    expect((await api("/api/shares", { token: alice.token })).body.shares).toEqual([link]);
  });

  it("refuses a bad kind, numbers out of range and bad JSON with 400 and a detail", async () => {
    const alice = await newUser("shares");
    const item = await newContent(alice);
    const kind = await share(alice, { kind: "album", id: item.id });
    expect(kind).toMatchObject({ status: 400, body: { detail: 'kind must be "content", "file" or "project"' } });
    for (const hours of [0, -5, 8761, "24"]) {
      const refused = await share(alice, { kind: "content", id: item.id, expires_in_hours: hours });
      expect(refused.status, String(hours)).toBe(400);
      expect(refused.body.detail).toContain("expires_in_hours");
    }
    for (const views of [0, 2.5, 1_000_001, "3"]) {
      const refused = await share(alice, { kind: "content", id: item.id, max_views: views });
      expect(refused.status, String(views)).toBe(400);
      expect(refused.body.detail).toContain("max_views");
    }
    expect((await share(alice, { kind: "content" })).status).toBe(400);
    expect((await share(alice, [1, 2])).status).toBe(400);
    const broken = await api("/api/shares", {
      raw: "{not json",
      token: alice.token,
      headers: { "Content-Type": "application/json" },
    });
    expect(broken).toMatchObject({ status: 400, body: { detail: "Request body must be valid JSON" } });
    expect((await api("/api/shares", { token: alice.token })).body.shares).toEqual([]);
  });

  it("says when a link expired, or its target is gone", async () => {
    const alice = await newUser("shares");
    const item = await newContent(alice, "Soon gone");
    const other = await newContent(alice, "Short-lived");
    const gone = (await share(alice, { kind: "content", id: item.id })).body;
    // 0.0002 hours: 0.72 seconds.
    const brief = (await share(alice, { kind: "content", id: other.id, expires_in_hours: 0.0002 })).body;
    expect((await api(`/api/content/${item.id}`, { method: "DELETE", token: alice.token })).status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const states = (await api("/api/shares", { token: alice.token })).body.shares.map(
      (link: { id: string; state: string; title: string }) => [link.id, link.state],
    );
    expect(states).toEqual([
      [brief.id, "expired"],
      [gone.id, "gone"],
    ]);
  });

  it("a personal API token gets 403 with a detail for create, list and revoke; a login's access token and the cookie may", async () => {
    const alice = await newUser("shares-token");
    const item = await newContent(alice);
    const made = await api("/api/account/tokens", { json: { name: "Nightly script" }, token: alice.token });
    expect(made.status).toBe(201);
    const personal = made.body.token as string;
    expect(personal).toMatch(/^cas_/);
    // The personal token still reads the person's content: only the share links are refused.
    expect((await api(`/api/content/${item.id}`, { token: personal })).status).toBe(200);

    const link = (await share(alice, { kind: "content", id: item.id })).body;
    const created = await api("/api/shares", { token: personal, json: { kind: "content", id: item.id } });
    expect(created).toMatchObject({ status: 403, body: { detail: PERSONAL_TOKEN_DETAIL } });
    const listed = await api("/api/shares", { token: personal });
    expect(listed).toMatchObject({ status: 403, body: { detail: PERSONAL_TOKEN_DETAIL } });
    expect(JSON.stringify(listed.body)).not.toContain(link.url);
    const revoked = await api(`/api/shares/${link.id}`, { method: "DELETE", token: personal });
    expect(revoked).toMatchObject({ status: 403, body: { detail: PERSONAL_TOKEN_DETAIL } });

    // Nothing was made or ended; a login's bearer access token is a session, and so is the cookie.
    expect((await api("/api/shares", { token: alice.token })).body.shares).toEqual([link]);
    const cookie = await signInWithForm(alice.email);
    const viaCookie = await api("/api/shares", { headers: { Cookie: cookie } });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.body.shares).toEqual([link]);
    expect((await api(`/api/shares/${link.id}`, { method: "DELETE", headers: { Cookie: cookie } })).status).toBe(204);
  });

  it("GET pages by cursor: ?limit=, Link rel=next and X-Total-Count; no offset, and a bad cursor is 400", async () => {
    const alice = await newUser("shares-pages");
    const item = await newContent(alice);
    const made = [];
    for (let index = 0; index < 5; index++) made.push((await share(alice, { kind: "content", id: item.id })).body);
    const newestFirst = made.reverse().map((link) => link.id);

    const seen: string[] = [];
    let path: string | null = "/api/shares?limit=2";
    const sizes: number[] = [];
    while (path) {
      const page = await api(path, { token: alice.token });
      expect(page.status, path).toBe(200);
      expect(page.headers.get("x-total-count")).toBe("5");
      expect(page.headers.get("cache-control")).toBe("no-store");
      sizes.push(page.body.shares.length);
      seen.push(...page.body.shares.map((link: { id: string }) => link.id));
      path = nextOf(page.headers);
      if (path) expect(path).toMatch(/^\/api\/shares\?limit=2&cursor=[\w-]+$/);
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(newestFirst);

    // The whole list in one page (100 unless asked): no Link.
    const whole = await api("/api/shares", { token: alice.token });
    expect(whole.body.shares.map((link: { id: string }) => link.id)).toEqual(newestFirst);
    expect(whole.headers.get("link")).toBeNull();

    // A link revoked meanwhile is neither repeated nor skipped past: the next page starts after the last one shown.
    const first = await api("/api/shares?limit=2", { token: alice.token });
    expect((await api(`/api/shares/${newestFirst[2]}`, { method: "DELETE", token: alice.token })).status).toBe(204);
    const second = await api(nextOf(first.headers)!, { token: alice.token });
    expect(second.body.shares.map((link: { id: string }) => link.id)).toEqual(newestFirst.slice(3, 5));
    expect(second.headers.get("x-total-count")).toBe("4");

    for (const query of [
      "offset=2",
      "limit=0",
      "limit=x",
      "cursor=not-a-cursor!",
      "cursor=eyJsIjoiY29udGVudCIsImsiOlsxXX0",
    ]) {
      const refused = await api(`/api/shares?${query}`, { token: alice.token });
      expect(refused.status, query).toBe(400);
      expect(refused.body.detail, query).toEqual(expect.any(String));
    }
  });

  it("at most SHARES_MAX_PER_PERSON (200) live links: 205 creates at once make exactly 200, the others 409 with a detail; a revoked one frees a place", async () => {
    const alice = await newUser("shares-limit");
    const item = await newContent(alice);
    const statuses = await manyLinks(alice, item.id, 205);
    expect(statuses.filter((status) => status === 201)).toHaveLength(200);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    const refused = await share(alice, { kind: "content", id: item.id });
    expect(refused).toMatchObject({ status: 409, body: { detail: limitDetail(200) } });
    const listed = await api("/api/shares?limit=500", { token: alice.token });
    expect(listed.headers.get("x-total-count")).toBe("200");

    // Another person's links are theirs to count.
    const bob = await newUser("shares-limit");
    expect((await share(bob, { kind: "content", id: (await newContent(bob)).id })).status).toBe(201);

    const oldest = listed.body.shares.at(-1) as { id: string };
    expect((await api(`/api/shares/${oldest.id}`, { method: "DELETE", token: alice.token })).status).toBe(204);
    expect((await share(alice, { kind: "content", id: item.id })).status).toBe(201);
    expect((await share(alice, { kind: "content", id: item.id })).status).toBe(409);
  }, 120_000);

  it("needs a signed-in person (401), and refuses a cross-site cookie call (403)", async () => {
    expect((await api("/api/shares")).status).toBe(401);
    expect((await api("/api/shares", { json: { kind: "content", id: "x" } })).status).toBe(401);
    expect((await api("/api/shares/some-id", { method: "DELETE" })).status).toBe(401);
    const alice = await newUser("shares");
    const item = await newContent(alice);
    const cookie = await signInWithForm(alice.email);
    const forged = await api("/api/shares", {
      json: { kind: "content", id: item.id },
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    const own = await api("/api/shares", {
      json: { kind: "content", id: item.id },
      headers: { Cookie: cookie, Origin: baseUrl() },
    });
    expect(own.status).toBe(201);
  });
});

describe("/api/shares with SHARES_MAX_PER_PERSON=3", () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it("counts only live links: revoked, expired, used-up and gone ones leave room", async () => {
    server = await startTestServer({ SHARES_MAX_PER_PERSON: "3" });
    const at = server.url;
    const alice = await newUser("shares-live", at);
    const item = await newContent(alice, "Kept", at);
    const doomed = await newContent(alice, "Soon deleted", at);
    const make = (extra: Record<string, unknown> = {}, id = item.id) =>
      share(alice, { kind: "content", id, ...extra }, at);

    // 0.001 hours: 3.6 seconds, long enough for the next three calls on a loaded machine.
    const brief = await make({ expires_in_hours: 0.001 });
    expect(brief.status).toBe(201);
    const once = await make({ max_views: 1 });
    expect(once.status).toBe(201);
    expect((await make({}, doomed.id)).status).toBe(201);
    expect(await make()).toMatchObject({ status: 409, body: { detail: limitDetail(3) } });

    // Used up (its one view), gone (its target deleted), expired (its time passed): none counts any more.
    expect((await fetch(once.body.url)).status).toBe(200);
    const deleted = await api(`/api/content/${doomed.id}`, { method: "DELETE", token: alice.token, server: at });
    expect(deleted.status).toBeLessThan(300);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(brief.body.expires_at) - Date.now()) + 300),
    );
    const live = [];
    for (let index = 0; index < 3; index++) {
      const made = await make();
      expect(made.status, String(index)).toBe(201);
      live.push(made.body as { id: string });
    }
    expect((await make()).status).toBe(409);
    // The over ones are still listed, with their state, until revoked.
    const listed = await api("/api/shares", { token: alice.token, server: at });
    expect(listed.headers.get("x-total-count")).toBe("6");
    expect(listed.body.shares.map((link: { state: string }) => link.state).sort()).toEqual(
      ["active", "active", "active", "expired", "gone", "used_up"].sort(),
    );
    // A revoked one leaves room at once.
    const revoked = await api(`/api/shares/${live[0].id}`, { method: "DELETE", token: alice.token, server: at });
    expect(revoked.status).toBe(204);
    expect((await make()).status).toBe(201);
  }, 180_000);
});

describe("/api/shares with SHARING=off", () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it("refuses new links with 403 and keeps the list and Revoke of the links made before", async () => {
    server = await startTestServer();
    const alice = await newUser("shares-off", server.url);
    const item = await newContent(alice, "Shared before", server.url);
    const made = (await share(alice, { kind: "content", id: item.id }, server.url)).body;
    const dataDir = server.dataDir;
    await server.stop();
    server = await startTestServer({ DATA_DIR: dataDir, SHARING: "off" });

    const refused = await share(alice, { kind: "content", id: item.id }, server.url);
    expect(refused).toMatchObject({ status: 403, body: { detail: "Sharing is turned off." } });
    const listed = await api("/api/shares", { token: alice.token, server: server.url });
    expect(listed.status).toBe(200);
    expect(listed.body.shares.map((link: { id: string }) => link.id)).toEqual([made.id]);
    const revoked = await api(`/api/shares/${made.id}`, { method: "DELETE", token: alice.token, server: server.url });
    expect(revoked.status).toBe(204);
    expect((await api("/api/shares", { token: alice.token, server: server.url })).body.shares).toEqual([]);
  });
});
