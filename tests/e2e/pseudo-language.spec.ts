import { expect, hydrated, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * docs/translating.md#checks: every screen in the pseudo-language en-XA (the e2e server runs with
 * PSEUDO_LANGUAGE=true), where each catalogue text is accented and bracketed ［…］. Any text a person
 * sees, or that names a control for them (aria-label, title, placeholder, alt), must come from the
 * catalogue; what is theirs (their titles, their email) and what has no words is let through. At
 * 375 × 667 with texts about 35% longer, no screen may scroll sideways.
 */
const MINE = "Zq9 mine";
/** Names that stay as they are in every language (docs/translating.md#terms). */
const PRODUCT_NAMES = ["Creative AI Studio"];

/** Texts on the page that did not come from the catalogue, and whether it scrolls sideways. */
function unexplained(page: Page, allowed: string[]) {
  return page.evaluate((allowed) => {
    // A catalogue text is bracketed; a piece of one split around an element (a link, a <time>) has
    // only accented letters left.
    const fromCatalogue = (text: string) =>
      text.includes("［") || text.includes("］") || (/[ȧḗīǿŭ]/.test(text) && !/[A-Za-z]{2,}/.test(text));
    const wordless = (text: string) => !/\p{L}{2,}/u.test(text);
    // A date Intl wrote for the pseudo-language (its formats are English ones): "Dec 7, 2026, 8:29 AM UTC".
    const intlDate = (text: string) =>
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}(, \d{1,2}:\d{2}(:\d{2})? [AP]M)?( UTC)?$/.test(text);
    // What is left once the person's own texts and the product's name are taken out must have no words.
    const ok = (text: string) =>
      fromCatalogue(text) ||
      intlDate(text) ||
      wordless(allowed.reduce((rest, mine) => rest.split(mine).join(" "), text));
    const hidden = (element: Element) => {
      // Not words for a person to read in their language: code samples, and dates and times, which Intl writes.
      if (element.closest("script, style, noscript, template, [hidden], [aria-hidden='true'], select, code, time"))
        return true;
      const box = (element as HTMLElement).getBoundingClientRect?.();
      const style = getComputedStyle(element);
      return style.display === "none" || style.visibility === "hidden" || (box && box.width === 0 && box.height === 0);
    };
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
      if (!text || ok(text) || !node.parentElement || hidden(node.parentElement)) continue;
      found.add(`text: ${text}`);
    }
    for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      if (element.closest("select, [aria-hidden='true']")) continue;
      for (const name of ["aria-label", "title", "placeholder", "alt"]) {
        const value = element.getAttribute(name)?.trim();
        if (value && !ok(value)) found.add(`${name}: ${value}`);
      }
    }
    if (document.title && !ok(document.title)) found.add(`title: ${document.title}`);
    const description = document.querySelector('meta[name="description"]')?.getAttribute("content");
    if (description && !ok(description)) found.add(`description: ${description}`);
    const root = document.scrollingElement!;
    return { texts: [...found], sideways: root.scrollWidth > root.clientWidth + 1 };
  }, allowed);
}

async function choosePseudo(page: Page) {
  const chosen = await page.request.post("/preferences", {
    form: { intent: "language", language: "en-XA", redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(chosen.status()).toBe(302);
}

test.use({ viewport: { width: 375, height: 667 } });

test("signed out, every screen is in the pseudo-language and fits a phone", async ({ page }) => {
  await choosePseudo(page);
  const problems: Record<string, unknown> = {};
  for (const path of ["/", "/login", "/register", "/no-such-page"]) {
    await page.goto(path);
    await hydrated(page);
    expect(await page.locator("html").getAttribute("lang")).toBe("en-XA");
    const found = await unexplained(page, PRODUCT_NAMES);
    if (found.texts.length || found.sideways) problems[path] = found;
  }
  expect(problems).toEqual({});
});

test("signed in, every screen is in the pseudo-language and fits a phone", async ({ page }) => {
  test.setTimeout(240_000);
  const { email } = await signUpAndLogIn(page, "pseudo");
  await choosePseudo(page);
  const created = await page.request.post("/api/content", { data: { title: MINE, body: MINE } });
  expect(created.status()).toBe(201);
  const contentId = (await created.json()).id as string;
  const project = await page.request.post("/api/project/create", { data: { title: MINE } });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id as string;
  const screens = [
    "/dashboard",
    "/create",
    `/content/${contentId}`,
    `/content/${contentId}/history`,
    "/feedback",
    "/capcut",
    "/music",
    "/voices",
    "/videos",
    "/camera",
    "/camera-v2",
    "/voicememo",
    "/assistant",
    "/image",
    "/drawing",
    "/aivideo",
    "/projects",
    "/project/new",
    `/project/${projectId}`,
    "/library",
    "/account",
    "/no-such-page",
  ];
  const problems: Record<string, unknown> = {};
  for (const path of screens) {
    await page.goto(path);
    await hydrated(page);
    // The language's flash toast shows on the first screen: the toasts' container and countdown are checked too.
    if (path === "/dashboard") await expect(page.locator(".Toastify__toast")).toBeVisible();
    // The sessions list shows each sign-in's device as it was stored then, from the browser's User-Agent.
    const found = await unexplained(page, [...PRODUCT_NAMES, MINE, email, "Chrome on Linux"]);
    if (found.texts.length || found.sideways) problems[path] = found;
  }
  expect(problems).toEqual({});
});
