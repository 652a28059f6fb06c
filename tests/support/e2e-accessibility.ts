import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { createTranslator, type Translator } from "../../app/common/i18n/translate";
import { directionOf, type Language } from "../../app/common/i18n/languages";
import { expect, hydrated, test as base, type Browser, type Page } from "./e2e-test";
import { webmBytes } from "./media";
import { PASSWORD, uniqueEmail } from "./e2e-session";
import { generateVideo } from "./e2e-generated-video";

/**
 * What the axe specs share (tests/e2e/accessibility.spec.ts in English, accessibility-languages.spec.ts
 * in German and Arabic): the rule set, the worker's signed-in person with a little of everything, the
 * screens and how each is made ready, and the check of one screen in both themes.
 */

export const WCAG_AND_BEST_PRACTICE = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
export const LAPTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 667 };
export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];
export type Viewport = { width: number; height: number };
/** A theme at a size. */
export type Look = { theme: Theme; viewport: Viewport };
export type Text = Translator["t"];

export interface Account {
  storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>;
  contentId: string;
  projectId: string;
  videoName: string;
  /** A finished AI video job (its clip is in the Video Hub's Generated section). */
  videoJobId: string;
  generatedMediaId: string;
}

/**
 * Registers and signs in one person for the worker and gives them something of each kind. No language
 * is saved on the account: its screens follow the browser's (Accept-Language), as a visitor's do.
 */
async function createAccount(browser: Browser, baseURL: string): Promise<Account> {
  const context = await browser.newContext({ baseURL });
  const request = context.request;
  const email = uniqueEmail("a11y");
  expect((await request.post("/api/auth/register", { data: { email, password: PASSWORD } })).status()).toBe(201);
  expect((await request.post("/login", { form: { email, password: PASSWORD }, maxRedirects: 0 })).status()).toBe(302);
  const content = await request.post("/api/content", {
    data: { title: "Harbour at dawn", body: "Grey water, a red boat, gulls." },
  });
  const project = await request.post("/api/project/create", {
    data: { title: "Short film", description: "A minute about the sea." },
  });
  const mp3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));
  const voice = await request.post("/api/voice/upload", {
    multipart: { file: { name: "narration.mp3", mimeType: "audio/mpeg", buffer: mp3 } },
  });
  const video = await request.post("/api/videos/upload", {
    multipart: { file: { name: "waves.webm", mimeType: "video/webm", buffer: webmBytes() } },
  });
  for (const answer of [content, project, voice, video]) expect(answer.ok(), await answer.text()).toBe(true);
  // A second save: the piece has versions, so History has a diff to open.
  const contentId = ((await content.json()) as { id: string }).id;
  const saved = await request.put(`/api/content/${contentId}`, {
    data: { title: "Harbour at dawn", body: "Grey water, a blue boat, <b>gulls</b>." },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const generated = await generateVideo(request, "Gulls over a grey harbour at dawn");
  const account = {
    storageState: await context.storageState(),
    contentId,
    projectId: ((await project.json()) as { id: string | number }).id.toString(),
    videoName: ((await video.json()) as { filename: string }).filename,
    videoJobId: generated.jobId,
    generatedMediaId: generated.mediaId,
  };
  await context.close();
  return account;
}

/**
 * `account`: the worker's person; `signedIn`: a page signed in as them, in a context of its own with the
 * test's `locale` and `extraHTTPHeaders` (test.use), so a describe block chooses the screens' language.
 */
export const test = base.extend<{ signedIn: Page }, { account: Account }>({
  account: [
    async ({ browser }, use) => use(await createAccount(browser, process.env.BASE_URL ?? "http://localhost:3000")),
    { scope: "worker", timeout: 120_000 },
  ],
  signedIn: async ({ browser, account, baseURL, locale, extraHTTPHeaders }, use) => {
    const context = await browser.newContext({ baseURL, locale, extraHTTPHeaders, storageState: account.storageState });
    await use(await context.newPage());
    await context.close();
  },
});

/** The screens' texts in a language, read from its catalogue by the app's own reader. */
export function textsOf(language: Language): Text {
  const file = path.resolve(`app/common/i18n/locales/${language}/messages.json`);
  const translator = createTranslator(language, JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>);
  return (key, values) => translator.t(key, values);
}

/** A name that starts with a catalogue text, anything in place of its {{placeholders}}. */
function startingWith(text: string) {
  const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${text
      .split(/\{\{\s*[\w.]+\s*\}\}/)
      .map(escape)
      .join(".*")}`,
  );
}

/** Chooses the theme the way the toggle does (the preferences cookie), for visitors too. */
async function chooseTheme(page: Page, theme: Theme) {
  const answer = await page.request.post("/preferences", {
    form: { intent: "theme", theme, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

/** Waits until React has hydrated the page and every animation that ends has ended (toasts slide in). */
async function settle(page: Page) {
  await hydrated(page);
  await page.waitForFunction(() => {
    const moving = document.getAnimations().filter((animation) => {
      const timing = animation.effect?.getComputedTiming();
      const target = (animation.effect as KeyframeEffect | null)?.target as Element | null;
      // Endless animations never settle; a toast's countdown bar runs for the toast's whole life.
      return (
        animation.playState === "running" &&
        timing?.iterations !== Infinity &&
        !target?.classList.contains("Toastify__progress-bar")
      );
    });
    return moving.length === 0;
  });
}

/** Once the dashboard is hydrated, choosing the current plan again raises its toast. */
async function raisePlanToast(page: Page, t: Text) {
  await hydrated(page);
  await page.getByRole("button", { name: t("Free"), exact: true }).click();
  await expect(page.getByText(t("{{plan}} Plan Activated!", { plan: t("Free") }))).toBeVisible();
}

/**
 * The texts docs/screens.md writes with an emoji (its states and error messages): the only emoji a control may show (decision 0045:
 * line icons everywhere else). None is a control's text today; a control quoting one would be allowed.
 */
const SPEC_EMOJI_TEXTS = [
  "💾 Saved",
  "✅ Saved manually",
  "✅ Completed!",
  "❌ Error generating video.",
  "⚠️ Timed out.",
  "⚠️ Please fill in all fields.",
  "❌ Passwords do not match.",
  "⚠️ That email is already registered.",
  "❌ Registration failed:",
  "⚠️ Error creating content. Please try again.",
  "⚠️ Failed to load content",
  "❌ Save failed",
  "❌ Upload failed",
  "❌ Upload error",
  "✅ Upload successful!",
  "🗑️ File deleted",
  "✨ Renamed successfully",
  "🎙️ Microphone access denied or unsupported browser.",
  "⚠️ Something went wrong. Please try again.",
  "✅ Feedback sent successfully!",
];

/** The controls (buttons, links, disclosure summaries, options) whose words or name hold an emoji that docs/screens.md does not quote. */
function controlsWithEmoji(page: Page, quoted: string[]) {
  return page.evaluate((quoted) => {
    const pictograph = /\p{Extended_Pictographic}/u;
    const found: string[] = [];
    const controls = document.querySelectorAll(
      "button, a[href], summary, [role='button'], [role='link'], [role='menuitem'], select option, input[type='submit'], input[type='button']",
    );
    for (const control of controls) {
      const words = control instanceof HTMLInputElement ? control.value : (control.textContent ?? "");
      for (const text of [words, control.getAttribute("aria-label") ?? "", control.getAttribute("title") ?? ""]) {
        const unquoted = quoted.reduce((rest, spec) => rest.replaceAll(spec, ""), text);
        if (pictograph.test(unquoted)) found.push(`${control.tagName.toLowerCase()}: ${text.trim()}`);
      }
    }
    return found;
  }, quoted);
}

/** Each theme at each size, a theme's sizes together (the theme is chosen once for them). */
export function everyLook(themes: readonly Theme[], viewports: Viewport[]): Look[] {
  return themes.flatMap((theme) => viewports.map((viewport) => ({ theme, viewport })));
}

/**
 * Checks one screen in each look (a theme at a size): no axe violation, no sideways scrolling, no emoji
 * on a control; in another language than English, the page says which (lang) and which way it reads (dir).
 */
export async function checkScreen(
  page: Page,
  url: string,
  {
    ready,
    looks,
    language = "en",
  }: { ready?: (page: Page, t: Text) => Promise<void>; looks: Look[]; language?: Language },
) {
  const t = textsOf(language);
  const quoted = SPEC_EMOJI_TEXTS.map((text) => t(text));
  let chosen: Theme | undefined;
  for (const { theme, viewport } of looks) {
    if (theme !== chosen) await chooseTheme(page, theme);
    chosen = theme;
    const where = `${url} (${language === "en" ? "" : `${language}, `}${theme}, ${viewport.width}x${viewport.height})`;
    await page.setViewportSize(viewport);
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    if (language !== "en") {
      await expect(page.locator("html"), where).toHaveAttribute("lang", language);
      await expect(page.locator("html"), where).toHaveAttribute("dir", directionOf(language));
    }
    // The screens are checked as the app made them: a click before React has hydrated does what it does without JavaScript.
    await hydrated(page);
    await ready?.(page, t);
    await settle(page);
    const results = await new AxeBuilder({ page }).withTags(WCAG_AND_BEST_PRACTICE).analyze();
    const violations = results.violations.map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.split("\n").slice(1).join(" ")}`).join("\n")}`,
    );
    expect(violations, `axe on ${where}`).toEqual([]);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(widths.scroll, `${where} scrolls sideways`).toBeLessThanOrEqual(widths.inner);
    // Nor does a fieldset spill out of its form over what is beside it (a fieldset is as wide as its content by default).
    const spilled = await page.evaluate(() =>
      [...document.querySelectorAll("fieldset")]
        .filter(
          (fieldset) =>
            fieldset.getBoundingClientRect().right > fieldset.parentElement!.getBoundingClientRect().right + 1,
        )
        .map((fieldset) => fieldset.className || fieldset.name || "fieldset"),
    );
    expect(spilled, `${where}: fieldsets wider than their form`).toEqual([]);
    expect(
      await controlsWithEmoji(page, quoted),
      `${where}: emoji on a control (line icons instead, decision 0045)`,
    ).toEqual([]);
  }
}

/** The screens a visitor sees. */
export const VISITOR_SCREENS = ["/", "/login", "/register", "/feedback", "/capcut", "/no-such-page"];

export interface SignedInScreen {
  name: string;
  url: (account: Account) => string;
  /** What to wait for (or open) before axe looks, with the screen's texts in its language. */
  ready?: (page: Page, t: Text) => Promise<void>;
  /** Longer than most (the dashboard raises a toast on each visit and waits for it). */
  slow?: boolean;
}

/** Every screen signed in, the lists and item pages with something in them. */
export const SIGNED_IN_SCREENS: SignedInScreen[] = [
  // The welcome shows once per sign-in: a plan toast puts a toast under axe on every visit.
  { name: "dashboard", url: () => "/dashboard", ready: raisePlanToast, slow: true },
  { name: "create", url: () => "/create" },
  {
    name: "content view",
    url: ({ contentId }) => `/content/${contentId}`,
    ready: (page) => expect(page.getByRole("heading", { name: "Harbour at dawn" })).toBeVisible(),
  },
  {
    name: "content edit",
    url: ({ contentId }) => `/content/${contentId}?edit=1`,
    ready: (page, t) => expect(page.getByLabel(t("Title"))).toBeVisible(),
  },
  // The oldest version open: its word diff (added and removed words) and Restore.
  {
    name: "content history with a version open",
    url: ({ contentId }) => `/content/${contentId}/history`,
    ready: async (page, t) => {
      await page
        .getByRole("list", { name: t("Versions, newest first") })
        .getByRole("link")
        .last()
        .click();
      await expect(page.getByTestId("diff-body").locator("ins").first()).toBeVisible();
      await expect(page.getByRole("button", { name: t("Restore this version") })).toBeVisible();
    },
  },
  { name: "login (signed in)", url: () => "/login" },
  { name: "feedback", url: () => "/feedback" },
  { name: "capcut", url: () => "/capcut" },
  { name: "music", url: () => "/music" },
  { name: "voices", url: () => "/voices", ready: (page) => expect(page.getByText("narration.mp3")).toBeVisible() },
  { name: "videos", url: () => "/videos", ready: (page) => expect(page.getByTestId("generated-item")).toHaveCount(1) },
  // "Open in Video Hub" lands here: the generated clip marked (decision 0043). Without its #fragment: a
  // second visit to the same address with one would not load the page again (the theme would stay).
  {
    name: "videos with a generated video marked",
    url: ({ generatedMediaId }) => `/videos?generated=${encodeURIComponent(generatedMediaId)}`,
    ready: (page) => expect(page.getByTestId("generated-item")).toHaveAttribute("aria-current", "true"),
  },
  { name: "video page", url: ({ videoName }) => `/videos/${encodeURIComponent(videoName)}` },
  {
    name: "camera",
    url: () => "/camera",
    ready: (page, t) => expect(page.getByRole("button", { name: t("Capture") })).toBeEnabled(),
  },
  {
    name: "camera-v2",
    url: () => "/camera-v2",
    ready: (page, t) => expect(page.getByRole("button", { name: t("Capture") })).toBeEnabled(),
  },
  { name: "voicememo", url: () => "/voicememo" },
  { name: "assistant", url: () => "/assistant" },
  { name: "image", url: () => "/image" },
  { name: "drawing", url: () => "/drawing" },
  { name: "aivideo", url: () => "/aivideo" },
  // A finished job: the preview with Download and Open in Video Hub (decision 0043).
  {
    name: "aivideo finished",
    url: ({ videoJobId }) => `/aivideo?job=${encodeURIComponent(videoJobId)}`,
    ready: (page, t) => expect(page.getByRole("link", { name: t("Open in Video Hub") })).toBeVisible(),
  },
  { name: "projects", url: () => "/projects", ready: (page) => expect(page.getByText("Short film")).toBeVisible() },
  { name: "project new", url: () => "/project/new" },
  {
    name: "project edit",
    url: ({ projectId }) => `/project/${projectId}`,
    // The Music generator open: its demo players and "Use for the project" are checked too.
    ready: async (page, t) => {
      await expect(page.getByLabel(t("Title"))).toHaveValue("Short film");
      await page.getByTestId("generator-music").locator("> summary").click();
      await expect(
        page.getByRole("button", { name: startingWith(t("Use {{name}} for the project")) }).first(),
      ).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
    },
  },
  // The first file's "Attach to project" chooser open: its select and button are checked too.
  {
    name: "library",
    url: () => "/library",
    ready: async (page, t) => {
      await page.locator(".library-attach > summary").first().click();
      await expect(page.getByLabel(startingWith(`${t("Project")} ${t("for {{name}}")}`)).first()).toBeVisible();
      // A card's Details open: the file's name, id and provenance are checked too.
      await page.getByTestId("file-details").first().locator("> summary").click();
      await expect(page.getByTestId("provenance").first()).toBeVisible();
      // Opening it scrolled the page: back to the top, so the filters are not read as under the phone's sticky bar.
      await page.evaluate(() => window.scrollTo(0, 0));
    },
  },
  { name: "account", url: () => "/account", ready: (page) => expect(page.getByTestId("session")).toHaveCount(1) },
  // The Share dialog with a link made in it (its choices, the link, Copy link, the QR code; decision 0071).
  {
    name: "library share dialog",
    url: () => "/library",
    ready: async (page, t) => {
      await page.getByTestId("share-control").first().click();
      const dialog = page.getByRole("dialog", { name: startingWith(t("Share “{{title}}”")) });
      await dialog.getByRole("button", { name: t("Create link") }).click();
      await expect(dialog.getByTestId("share-qr")).toBeVisible();
    },
  },
  // The account's "Shared links" with a link in it.
  {
    name: "account shared links",
    url: (account) => `/account?a11y=${account.contentId}`,
    ready: async (page) => {
      const id = new URL(page.url()).searchParams.get("a11y");
      expect((await page.request.post("/api/shares", { data: { kind: "content", id } })).status()).toBe(201);
      await page.reload();
      await expect(page.getByTestId("shared-link").first()).toBeVisible();
    },
  },
  { name: "404", url: () => "/no-such-page" },
];
