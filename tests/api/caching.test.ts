import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";
import { formLogin } from "../support/client.mjs";

// Pages that show a signed-in person's data, and every answer of a screen that needs sign-in (its
// redirect to /login included), are `Cache-Control: private, no-store`: no shared cache or
// back/forward cache keeps one person's page for another. Anonymous pages stay cacheable, and they
// set no cookie (a Set-Cookie on every page would make them personal too). The dashboard, kept
// between changes, is `private, no-cache` with an ETag: stored by the browser only, and revalidated
// before every use (tests/api/personal-page-cache.test.ts).
const PERSONAL = "private, no-store";
const KEPT_PERSONAL = "private, no-cache";

async function page(path: string, cookie?: string) {
  return fetch(`${baseUrl()}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

describe("caching of personal pages", () => {
  let cookie: string;
  let contentId: string;
  let loginCacheControl: string | null;
  beforeAll(async () => {
    const user = await newUser("cache");
    const login = await formLogin(baseUrl(), user.email);
    expect(login.status).toBe(302);
    loginCacheControl = login.headers.get("cache-control");
    cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-session="))!
      .split(";")[0];
    const created = await api("/api/content", { token: user.token, json: { title: "Private notes" } });
    expect(created.status).toBe(201);
    contentId = created.body.id;
  });

  it("/dashboard signed in answers private, no-cache with an ETag", async () => {
    const response = await page("/dashboard", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(KEPT_PERSONAL);
    expect(response.headers.get("etag")).toBeTruthy();
  });

  it("/content/{id} signed in answers private, no-store", async () => {
    const response = await page(`/content/${contentId}`, cookie);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Private notes");
    expect(response.headers.get("cache-control")).toBe(PERSONAL);
  });

  it("the login's answer, which sets the session cookie, is private", () => {
    expect(loginCacheControl).toBe(PERSONAL);
  });

  it("the page data a client-side navigation loads is private too", async () => {
    const response = await page(`/content/${contentId}.data`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(PERSONAL);
  });

  it("any page for a signed-in person is private, / and the not-found page included", async () => {
    for (const path of ["/", "/no-such-page"]) {
      expect((await page(path, cookie)).headers.get("cache-control"), path).toBe(PERSONAL);
    }
  });

  it("a screen that needs sign-in redirects to /login privately when nobody is signed in", async () => {
    for (const path of ["/dashboard", `/content/${contentId}`, "/projects"]) {
      const response = await page(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toContain("/login");
      expect(response.headers.get("cache-control"), path).toBe(PERSONAL);
    }
  });

  it("/login, /register and / for nobody in particular set no cookie and are not no-store", async () => {
    for (const path of ["/login", "/register", "/"]) {
      const response = await page(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBeNull();
      expect(response.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it("/api answers keep their own Cache-Control", async () => {
    const response = await fetch(`${baseUrl()}/api/voice/voices`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
  });

  it("a flash toast is read once: the cookie is cleared on the page that shows it", async () => {
    // /projects without a session redirects to /login with "Please log in again." in the toast cookie.
    const redirect = await page("/projects");
    const toastCookie = redirect.headers.getSetCookie().find((c) => c.startsWith("__Host-toast-session="));
    expect(toastCookie).toBeDefined();
    const shown = await page(redirect.headers.get("location")!, toastCookie!.split(";")[0]);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Please log in again.");
    const cleared = shown.headers.getSetCookie().find((c) => c.startsWith("__Host-toast-session="));
    expect(cleared).toMatch(/^__Host-toast-session=; .*Expires=Thu, 01 Jan 1970/);
    expect(shown.headers.get("cache-control")).toBe(PERSONAL);
  });
});

describe("anonymous pages are rendered for each visitor", () => {
  const nonceOf = (html: string) => /<script nonce="([^"]+)"/.exec(html)?.[1];

  it("each visitor of /register gets a page with a nonce of its own", async () => {
    const answers = await Promise.all([0, 1, 2].map(() => page("/register")));
    const pages = await Promise.all(answers.map((answer) => answer.text()));
    const nonces = pages.map(nonceOf);
    expect(new Set(nonces).size).toBe(3);
    answers.forEach((answer, i) =>
      expect(answer.headers.get("content-security-policy")).toContain(`'nonce-${nonces[i]}'`),
    );
  });

  it("a signed-in person and a light-mode visitor each get their own /login", async () => {
    const user = await newUser("anonymous-pages");
    const cookie = await signInWithForm(user.email);
    expect(await (await page("/login")).text()).not.toContain("Signed in as");
    const signedIn = await page("/login", cookie);
    const signedInPage = await signedIn.text();
    expect(signedInPage).toContain("You are logged in");
    expect(signedInPage).toContain(user.email);
    expect(signedIn.headers.get("cache-control")).toBe(PERSONAL);
    // The theme lives in a cookie: a light-mode visitor gets the light page, others the dark one.
    const prefs = await fetch(`${baseUrl()}/preferences`, {
      method: "POST",
      body: new URLSearchParams({ intent: "theme", theme: "light", redirectTo: "/login" }),
      redirect: "manual",
    });
    const light = prefs.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-studio_prefs="))!
      .split(";")[0];
    expect(await (await page("/login")).text()).toContain('data-theme="dark"');
    expect(await (await page("/login", light)).text()).toContain('data-theme="light"');
  });
});
