import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "./client";

// The dashboard is rendered once per content version and answered from memory until the person's
// content changes (app/auth/personal-page-cache.server.ts). What must hold: every change shows at
// once, one person never sees another's page, every copy has a nonce of its own, and a client-side
// navigation's data request never gets the kept HTML.

async function dashboard(cookie: string, query = "") {
  const response = await fetch(`${baseUrl()}/dashboard${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
  expect(response.status).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return { response, html: await response.text(), nonce: nonce! };
}

describe("the dashboard kept between changes", () => {
  let owner: Awaited<ReturnType<typeof newUser>>;
  let cookie: string;
  let other: Awaited<ReturnType<typeof newUser>>;
  let otherCookie: string;
  let itemId: string;

  beforeAll(async () => {
    owner = await newUser("kept");
    cookie = await signInWithForm(owner.email);
    other = await newUser("kept-other");
    otherCookie = await signInWithForm(other.email);
    const created = await api("/api/content", { token: owner.token, json: { title: "First draft of the owl story" } });
    expect(created.status).toBe(201);
    itemId = created.body.id;
    await api("/api/content", { token: other.token, json: { title: "Other person secret plans" } });
  });

  it("answers the same page again with a fresh nonce in the header and every script", async () => {
    const first = await dashboard(cookie);
    const second = await dashboard(cookie);
    expect(first.nonce).toBeTruthy();
    expect(second.nonce).toBeTruthy();
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).not.toContain(first.nonce);
    const scriptNonces = [...second.html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([second.nonce]));
    expect(second.html.split(second.nonce).join("N")).toBe(first.html.split(first.nonce).join("N"));
    expect(second.response.headers.get("cache-control")).toBe("private, no-store");
    expect(second.response.headers.get("server-timing")).toBe('page;desc="kept"');
  });

  it("renders again after a change, then keeps the new page", async () => {
    await dashboard(cookie);
    expect((await dashboard(cookie)).response.headers.get("server-timing")).toBe('page;desc="kept"');
    await api(`/api/content/${itemId}/autosave`, { method: "POST", token: owner.token, json: { title: "Owl story, autosaved", body: "Once" } });
    const changed = await dashboard(cookie);
    expect(changed.response.headers.get("server-timing")).toBe('page;desc="rendered"');
    expect(changed.html).toContain("Owl story, autosaved");
    expect((await dashboard(cookie)).response.headers.get("server-timing")).toBe('page;desc="kept"');
  });

  it("shows every change at once: create, rename, pin, delete", async () => {
    await dashboard(cookie);
    const created = await api("/api/content", { token: owner.token, json: { title: "A brand new idea" } });
    expect(created.status).toBe(201);
    expect((await dashboard(cookie)).html).toContain("A brand new idea");

    const renamed = await api(`/api/content/${itemId}`, { method: "PUT", token: owner.token, json: { title: "Owl story, second draft" } });
    expect(renamed.status).toBe(200);
    const afterRename = (await dashboard(cookie)).html;
    expect(afterRename).toContain("Owl story, second draft");
    expect(afterRename).not.toContain("First draft of the owl story");

    // A pin changes no title, only the row's state: the star's form says "unpin" once pinned.
    const unpinnedForms = (afterRename.match(/name="unpin"/g) ?? []).length;
    const pinned = await api(`/api/content/${itemId}/pin`, { method: "POST", token: owner.token, json: { pinned: true } });
    expect(pinned.status).toBe(200);
    expect(((await dashboard(cookie)).html.match(/name="unpin"/g) ?? []).length).toBe(unpinnedForms + 1);

    const deleted = await api(`/api/content/${created.body.id}`, { method: "DELETE", token: owner.token });
    expect([200, 204]).toContain(deleted.status);
    expect((await dashboard(cookie)).html).not.toContain("A brand new idea");
  });

  it("never answers one person with another's page", async () => {
    await dashboard(cookie);
    const theirs = (await dashboard(otherCookie)).html;
    expect(theirs).toContain("Other person secret plans");
    expect(theirs).not.toContain("Owl story");
    expect((await dashboard(cookie)).html).not.toContain("secret plans");
  });

  it("keeps pages per URL and per preference cookie", async () => {
    const plain = (await dashboard(cookie)).html;
    const editing = (await dashboard(cookie, "?edit=1")).html;
    expect(editing).not.toBe(plain);
    expect((await dashboard(cookie)).html.includes('data-theme="light"')).toBe(plain.includes('data-theme="light"'));
  });

  it("a client-side navigation's data request gets data, not the kept page", async () => {
    await dashboard(cookie);
    await dashboard(cookie);
    const response = await fetch(`${baseUrl()}/dashboard.data`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).not.toMatch(/text\/html/);
    expect(await response.text()).not.toMatch(/^<!DOCTYPE html>/i);
  });

  it("a client cannot pretend a data request is a document", async () => {
    await dashboard(cookie);
    const response = await fetch(`${baseUrl()}/dashboard.data`, { headers: { Cookie: cookie, "X-Studio-Document-Request": "1" } });
    expect(response.headers.get("content-type")).not.toMatch(/text\/html/);
  });
});
