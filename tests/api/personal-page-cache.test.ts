import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";

// The dashboard is rendered once per content version and answered from memory until the person's
// content changes (app/lib/page-cache/kept-pages.server.ts, route middleware of /dashboard), with an ETag a
// browser revalidates. What must hold: every change shows at once, one person never sees another's
// page, every copy has a nonce of its own, a matching If-None-Match is a 304 without a body, and a
// client-side navigation's data request never gets the kept HTML.

async function dashboard(cookie: string, query = "") {
  const response = await fetch(`${baseUrl()}/dashboard${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
  expect(response.status).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  const html = await response.text();
  // The markup without its nonce: what two answers of the same page have in common.
  return { response, html, nonce: nonce!, markup: html.split(nonce!).join("N") };
}

/** The preferences cookie a theme change sets (POST /preferences, as the header's toggle does). */
async function themeCookie(cookie: string, theme: "dark" | "light"): Promise<string> {
  const response = await fetch(`${baseUrl()}/preferences`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: baseUrl(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "theme", theme, redirectTo: "/dashboard" }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  const prefs = response.headers.getSetCookie().find((value) => value.startsWith("__Host-studio_prefs="));
  expect(prefs).toBeTruthy();
  return prefs!.split(";")[0];
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

  it("keeps a page asked for a second time and answers it again with a fresh nonce in the header and every script", async () => {
    const first = await dashboard(cookie, "?view=nonce");
    expect(first.response.headers.get("server-timing")).toBe('page;desc="rendered"');
    // A URL seen once is not kept; the second time it is rendered and kept; then it comes from memory.
    expect((await dashboard(cookie, "?view=nonce")).response.headers.get("server-timing")).toBe('page;desc="rendered"');
    const second = await dashboard(cookie, "?view=nonce");
    expect(first.nonce).toBeTruthy();
    expect(second.nonce).toBeTruthy();
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).not.toContain(first.nonce);
    const scriptNonces = [...second.html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([second.nonce]));
    expect(second.markup).toBe(first.markup);
    expect(second.response.headers.get("cache-control")).toBe("private, no-cache");
    expect(second.response.headers.get("server-timing")).toBe('page;desc="kept"');
    expect(second.response.headers.get("etag")).toMatch(/^W\/"[\w-]+"$/);
    expect(second.response.headers.get("etag")).toBe(first.response.headers.get("etag"));
  });

  it("answers a browser's revalidation with 304 while the page is unchanged, and with the new page after a change", async () => {
    const first = await dashboard(cookie);
    const etag = first.response.headers.get("etag")!;
    const revalidated = await fetch(`${baseUrl()}/dashboard`, {
      headers: { Cookie: cookie, "If-None-Match": etag },
      redirect: "manual",
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    expect(revalidated.headers.get("etag")).toBe(etag);
    // The browser keeps the stored page's policy, whose nonce matches the stored markup.
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
    expect(revalidated.headers.get("cache-control")).toBe("private, no-cache");

    const other = await fetch(`${baseUrl()}/dashboard`, {
      headers: { Cookie: cookie, "If-None-Match": 'W/"something-else"' },
      redirect: "manual",
    });
    expect(other.status).toBe(200);
    // The validator names the page at its URL: another URL of the dashboard is another page.
    const paged = await fetch(`${baseUrl()}/dashboard?edit=1`, {
      headers: { Cookie: cookie, "If-None-Match": etag },
      redirect: "manual",
    });
    expect(paged.status).toBe(200);

    await api("/api/content", { token: owner.token, json: { title: "Written after the page was stored" } });
    const changed = await fetch(`${baseUrl()}/dashboard`, {
      headers: { Cookie: cookie, "If-None-Match": etag },
      redirect: "manual",
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.text()).toContain("Written after the page was stored");

    // Another person's validator never opens this person's page, and a signed-out one gets the login.
    const theirs = await fetch(`${baseUrl()}/dashboard`, {
      headers: { Cookie: otherCookie, "If-None-Match": changed.headers.get("etag")! },
      redirect: "manual",
    });
    expect(theirs.status).toBe(200);
    expect(await theirs.text()).not.toContain("Written after the page was stored");
    const anonymous = await fetch(`${baseUrl()}/dashboard`, {
      headers: { "If-None-Match": changed.headers.get("etag")! },
      redirect: "manual",
    });
    expect(anonymous.status).toBe(302);
  });

  it("renders again after a change, then keeps the new page", async () => {
    await dashboard(cookie);
    await dashboard(cookie);
    expect((await dashboard(cookie)).response.headers.get("server-timing")).toBe('page;desc="kept"');
    await api(`/api/content/${itemId}/autosave`, {
      method: "POST",
      token: owner.token,
      json: { title: "Owl story, autosaved", body: "Once" },
    });
    const changed = await dashboard(cookie);
    expect(changed.response.headers.get("server-timing")).toBe('page;desc="rendered"');
    expect(changed.html).toContain("Owl story, autosaved");
    await dashboard(cookie);
    expect((await dashboard(cookie)).response.headers.get("server-timing")).toBe('page;desc="kept"');
  });

  it("shows every change at once: create, rename, pin, delete", async () => {
    await dashboard(cookie);
    const created = await api("/api/content", { token: owner.token, json: { title: "A brand new idea" } });
    expect(created.status).toBe(201);
    expect((await dashboard(cookie)).html).toContain("A brand new idea");

    const renamed = await api(`/api/content/${itemId}`, {
      method: "PUT",
      token: owner.token,
      json: { title: "Owl story, second draft" },
    });
    expect(renamed.status).toBe(200);
    const afterRename = (await dashboard(cookie)).html;
    expect(afterRename).toContain("Owl story, second draft");
    expect(afterRename).not.toContain("First draft of the owl story");

    // A pin changes no title, only the row's state: the star's form says "unpin" once pinned.
    const unpinnedForms = (afterRename.match(/name="unpin"/g) ?? []).length;
    const pinned = await api(`/api/content/${itemId}/pin`, {
      method: "POST",
      token: owner.token,
      json: { pinned: true },
    });
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
    const plain = await dashboard(cookie);
    const editing = await dashboard(cookie, "?edit=1");
    expect(editing.markup).not.toBe(plain.markup);
    expect((await dashboard(cookie)).markup).toBe(plain.markup);

    // The same person with another theme in the preference cookie: another page, kept apart.
    const theme = plain.html.includes('data-theme="light"') ? "dark" : "light";
    const withTheme = `${cookie}; ${await themeCookie(cookie, theme)}`;
    const themed = await dashboard(withTheme);
    expect(themed.html).toContain(`data-theme="${theme}"`);
    expect(themed.response.headers.get("etag")).not.toBe(plain.response.headers.get("etag"));
    await dashboard(withTheme);
    expect((await dashboard(withTheme)).response.headers.get("server-timing")).toBe('page;desc="kept"');
    // The page without the cookie is still the one it was.
    const again = await dashboard(cookie);
    expect(again.markup).toBe(plain.markup);
    expect(again.html).not.toContain(`data-theme="${theme}"`);
  });

  it("a client-side navigation's data request gets data, not the kept page", async () => {
    await dashboard(cookie);
    await dashboard(cookie);
    const response = await fetch(`${baseUrl()}/dashboard.data`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).not.toMatch(/text\/html/);
    expect(await response.text()).not.toMatch(/^<!DOCTYPE html>/i);
  });

  it("a data request that asks like a browser's document (Accept: text/html) still gets data", async () => {
    await dashboard(cookie);
    await dashboard(cookie);
    const response = await fetch(`${baseUrl()}/dashboard.data`, {
      headers: { Cookie: cookie, Accept: "text/html", "Sec-Fetch-Dest": "document" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).not.toMatch(/text\/html/);
    expect(response.headers.get("etag")).toBeNull();
  });

  it("keeps a page per screen language: the same person's dashboard asked in German, then in English, is each in its own", async () => {
    const asked = async (language: string) => {
      const response = await fetch(`${baseUrl()}/dashboard?view=languages`, {
        headers: { Cookie: cookie, "Accept-Language": language },
        redirect: "manual",
      });
      expect(response.status).toBe(200);
      return { response, html: await response.text() };
    };
    // Asked three times in German: the third answer comes from memory.
    await asked("de");
    await asked("de");
    const german = await asked("de");
    expect(german.response.headers.get("server-timing")).toBe('page;desc="kept"');
    expect(german.html).toContain('<html lang="de"');
    const english = await asked("en");
    expect(english.html).toContain('<html lang="en"');
    expect(english.response.headers.get("server-timing")).toBe('page;desc="rendered"');
    expect(english.response.headers.get("etag")).not.toBe(german.response.headers.get("etag"));
    // The browser's revalidation of the German page is not a 304 for the English one.
    const revalidated = await fetch(`${baseUrl()}/dashboard?view=languages`, {
      headers: { Cookie: cookie, "Accept-Language": "en", "If-None-Match": german.response.headers.get("etag")! },
      redirect: "manual",
    });
    expect(revalidated.status).toBe(200);
  });
});
