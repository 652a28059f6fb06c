import { afterAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";
import { PNG_BYTES } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";

/**
 * Share links' API (docs/api.md#share-links, docs/decisions/0069): POST /api/shares makes a link to one of
 * the person's content pieces, library files or projects; GET lists the live ones newest first; DELETE
 * revokes one. Another person's target or link is 404, bad input 400, no sign-in 401; SHARING=off refuses
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
