import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../app/common/i18n/languages";
import { api, baseUrl, newUser, signInWithForm, uniqueEmail } from "../support/api";

/** GET a screen as a browser would; the <html> element's lang and dir. */
async function htmlOf(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl() + path, { headers, redirect: "manual" });
  const html = await response.text();
  const tag = /<html\b[^>]*>/.exec(html)?.[0] ?? "";
  return {
    status: response.status,
    lang: /\blang="([^"]+)"/.exec(tag)?.[1],
    dir: /\bdir="([^"]+)"/.exec(tag)?.[1],
    catalogue: /\bdata-catalogue="([^"]+)"/.exec(tag)?.[1]?.replaceAll("&amp;", "&"),
    html,
  };
}

/** POST /preferences as the language menu's plain form does. */
function chooseLanguage(language: string, cookie = "", redirectTo = "/login") {
  return fetch(baseUrl() + "/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl(), Cookie: cookie },
    body: new URLSearchParams({ intent: "language", language, redirectTo }),
    redirect: "manual",
  });
}
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

describe("the screens' language (docs/translating.md#which-language)", () => {
  it("answers each of the eight languages from Accept-Language, with lang and dir, and the 404 page in it", async () => {
    const notFound: Record<string, string> = {};
    for (const { tag, dir } of LANGUAGES) {
      const page = await htmlOf("/login", { "Accept-Language": `${tag};q=0.9, xx` });
      expect([page.status, page.lang, page.dir], tag).toEqual([200, tag, dir]);
      const missing = await htmlOf("/no-such-page", { "Accept-Language": tag });
      expect(missing.status).toBe(404);
      notFound[tag] =
        `${/<title>([^<]+)<\/title>/.exec(missing.html)?.[1]} | ${/<\/h1><p>([^<]+)<\/p>/.exec(missing.html)?.[1]}`;
    }
    expect(notFound.en).toBe("Page not found · Creative AI Studio | This page does not exist.");
    // Each language its own words for both.
    for (const part of [0, 1])
      expect(new Set(Object.values(notFound).map((text) => text.split(" | ")[part])).size).toBe(LANGUAGES.length);
    expect((await htmlOf("/login", { "Accept-Language": "zh-Hans" })).lang).toBe("zh-CN");
    expect((await htmlOf("/login", { "Accept-Language": "pt" })).lang).toBe("pt-BR");
    expect((await htmlOf("/login", { "Accept-Language": "sv" })).lang).toBe("en");
  });

  it("serves only the page's language to the browser, cached for good under its version", async () => {
    const { catalogue } = await htmlOf("/login", { "Accept-Language": "de" });
    expect(catalogue).toMatch(/^\/locales\/de\.json\?v=[\w-]+$/);
    const response = await fetch(baseUrl() + catalogue);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const messages = (await response.json()) as Record<string, string>;
    expect(messages["Page not found"]).toBe("Seite nicht gefunden");
    const etag = response.headers.get("etag")!;
    expect((await fetch(baseUrl() + "/locales/de.json", { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await fetch(baseUrl() + "/locales/xx.json")).status).toBe(404);
    // The pseudo-language is offered only where PSEUDO_LANGUAGE is on (not on this server).
    expect((await fetch(baseUrl() + "/locales/en-XA.json")).status).toBe(404);
  });

  it("keeps a choice made in this browser, signed out, over Accept-Language; refuses a tag not offered", async () => {
    const chosen = await chooseLanguage("fr", "", "/register?x=1");
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/register?x=1");
    const cookie = cookiesOf(chosen);
    expect((await htmlOf("/login", { Cookie: cookie, "Accept-Language": "de" })).lang).toBe("fr");
    const refused = await chooseLanguage("xx", cookie);
    expect(refused.status).toBe(400);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await htmlOf("/login", { Cookie: cookie })).lang).toBe("fr");
    expect((await chooseLanguage("en-XA", cookie)).status).toBe(400);
  });

  it("saves a signed-in person's choice on the account: it follows them to another browser", async () => {
    const { email } = await newUser("language");
    const cookie = await signInWithForm(email);
    expect((await chooseLanguage("ja", cookie, "/account")).status).toBe(302);
    // Another browser, which asks for German and never chose: the account's choice wins once signed in.
    const elsewhere = await signInWithForm(email);
    expect((await htmlOf("/dashboard", { Cookie: elsewhere, "Accept-Language": "de" })).lang).toBe("ja");
    // Signed out, that browser is back to its own Accept-Language.
    expect((await htmlOf("/login", { "Accept-Language": "de" })).lang).toBe("de");
  });

  it("keeps the /api contract in English whatever Accept-Language says", async () => {
    const { token } = await newUser("language-api");
    const email = uniqueEmail("nobody");
    const calls = [
      () => ["/api/auth/login", { json: { email, password: "wrong password here" } }] as const,
      () => ["/api/content", { json: { title: "" }, token }] as const,
      () => ["/api/content/no-such-id", { token }] as const,
    ];
    for (const call of calls) {
      const [path, options] = call();
      const english = await api(path, options);
      expect(english.status).toBeGreaterThanOrEqual(400);
      expect(english.body.detail).toMatch(/^[\x20-\x7e]+$/);
      for (const language of ["de", "ar", "ja"]) {
        const other = await api(path, { ...options, headers: { "Accept-Language": language } });
        expect([other.status, other.body], `${path} in ${language}`).toEqual([english.status, english.body]);
      }
    }
  });
});
