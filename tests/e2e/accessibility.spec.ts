import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Browser, type Page } from "../support/e2e-test";
import { webmBytes } from "../support/media";
import { PASSWORD, uniqueEmail } from "../support/e2e-session";
import { generateVideo } from "../support/e2e-generated-video";

/**
 * Every screen, in both themes, at 1280x900 and 375x667: axe-core reports no violation of WCAG 2.0,
 * 2.1 and 2.2 A/AA or of its best practices, and nothing scrolls sideways. One signed-in person per
 * worker, with a little of everything (a content item, a project, a voice clip, a video, a generated
 * video), so the lists and item pages are checked with something in them. Each test checks one screen four ways.
 */

const WCAG_AND_BEST_PRACTICE = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
];
const THEMES = ["dark", "light"] as const;

interface Account {
  storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>;
  contentId: string;
  projectId: string;
  videoName: string;
  /** A finished AI video job (its clip is in the Video Hub's Generated section). */
  videoJobId: string;
  generatedMediaId: string;
}

/** Registers and signs in one person for the worker and gives them something of each kind. */
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

const test = base.extend<{ signedIn: Page }, { account: Account }>({
  account: [
    async ({ browser }, use) => use(await createAccount(browser, process.env.BASE_URL ?? "http://localhost:3000")),
    { scope: "worker", timeout: 120_000 },
  ],
  signedIn: async ({ browser, account, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, storageState: account.storageState });
    await use(await context.newPage());
    await context.close();
  },
});

/** Chooses the theme the way the toggle does (the preferences cookie), for visitors too. */
async function chooseTheme(page: Page, theme: (typeof THEMES)[number]) {
  const answer = await page.request.post("/preferences", {
    form: { intent: "theme", theme, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

/** Waits until React has hydrated the page and every animation that ends has ended (toasts slide in). */
async function settle(page: Page) {
  await page.waitForFunction(() => {
    const root = document.querySelector("main") ?? document.body.firstElementChild;
    const hydrated = !!root && Object.keys(root).some((key) => key.startsWith("__reactFiber"));
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
    return hydrated && moving.length === 0;
  });
}

/** Once the dashboard is hydrated, choosing the current plan again raises its toast. */
async function raisePlanToast(page: Page) {
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("main") ?? {}).some((key) => key.startsWith("__reactFiber")),
  );
  await page.getByRole("button", { name: "Free", exact: true }).click();
  await expect(page.getByText("Free Plan Activated!")).toBeVisible();
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
function controlsWithEmoji(page: Page) {
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
  }, SPEC_EMOJI_TEXTS);
}

/** Checks one screen in both themes at both sizes: no axe violation, no sideways scrolling, no emoji on a control. */
async function checkScreen(page: Page, url: string, ready?: (page: Page) => Promise<void>) {
  for (const theme of THEMES) {
    await chooseTheme(page, theme);
    for (const viewport of VIEWPORTS) {
      const where = `${url} (${theme}, ${viewport.width}x${viewport.height})`;
      await page.setViewportSize(viewport);
      await page.goto(url);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await ready?.(page);
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
      expect(await controlsWithEmoji(page), `${where}: emoji on a control (line icons instead, decision 0045)`).toEqual(
        [],
      );
    }
  }
}

test.describe.configure({ mode: "parallel" });

test.describe("visitors", () => {
  for (const url of ["/", "/login", "/register", "/feedback", "/capcut", "/no-such-page"]) {
    test(`${url} has no axe violation and does not scroll sideways`, async ({ page }) => {
      await checkScreen(page, url);
    });
  }
});

test.describe("signed in", () => {
  const screens: Array<[string, (account: Account) => string, ((page: Page) => Promise<void>)?]> = [
    // The welcome shows once per sign-in: a plan toast puts a toast under axe on every visit.
    ["dashboard", () => "/dashboard", raisePlanToast],
    ["create", () => "/create"],
    [
      "content view",
      ({ contentId }) => `/content/${contentId}`,
      (page) => expect(page.getByRole("heading", { name: "Harbour at dawn" })).toBeVisible(),
    ],
    [
      "content edit",
      ({ contentId }) => `/content/${contentId}?edit=1`,
      (page) => expect(page.getByLabel("Title")).toBeVisible(),
    ],
    // The oldest version open: its word diff (added and removed words) and Restore.
    [
      "content history with a version open",
      ({ contentId }) => `/content/${contentId}/history`,
      async (page) => {
        await page.getByRole("list", { name: "Versions, newest first" }).getByRole("link").last().click();
        await expect(page.getByTestId("diff-body").locator("ins").first()).toBeVisible();
        await expect(page.getByRole("button", { name: "Restore this version" })).toBeVisible();
      },
    ],
    ["login (signed in)", () => "/login"],
    ["feedback", () => "/feedback"],
    ["capcut", () => "/capcut"],
    ["music", () => "/music"],
    ["voices", () => "/voices", (page) => expect(page.getByText("narration.mp3")).toBeVisible()],
    ["videos", () => "/videos", (page) => expect(page.getByTestId("generated-item")).toHaveCount(1)],
    // "Open in Video Hub" lands here: the generated clip marked (decision 0043). Without its #fragment: a
    // second visit to the same address with one would not load the page again (the theme would stay).
    [
      "videos with a generated video marked",
      ({ generatedMediaId }) => `/videos?generated=${encodeURIComponent(generatedMediaId)}`,
      (page) => expect(page.getByTestId("generated-item")).toHaveAttribute("aria-current", "true"),
    ],
    ["video page", ({ videoName }) => `/videos/${encodeURIComponent(videoName)}`],
    ["camera", () => "/camera", (page) => expect(page.getByRole("button", { name: "Capture" })).toBeEnabled()],
    ["camera-v2", () => "/camera-v2", (page) => expect(page.getByRole("button", { name: "Capture" })).toBeEnabled()],
    ["voicememo", () => "/voicememo"],
    ["assistant", () => "/assistant"],
    ["image", () => "/image"],
    ["drawing", () => "/drawing"],
    ["aivideo", () => "/aivideo"],
    // A finished job: the preview with Download and Open in Video Hub (decision 0043).
    [
      "aivideo finished",
      ({ videoJobId }) => `/aivideo?job=${encodeURIComponent(videoJobId)}`,
      (page) => expect(page.getByRole("link", { name: "Open in Video Hub" })).toBeVisible(),
    ],
    ["projects", () => "/projects", (page) => expect(page.getByText("Short film")).toBeVisible()],
    ["project new", () => "/project/new"],
    [
      "project edit",
      ({ projectId }) => `/project/${projectId}`,
      // The Music generator open: its demo players and "Use for the project" are checked too.
      async (page) => {
        await expect(page.getByLabel("Title")).toHaveValue("Short film");
        await page.getByTestId("generator-music").locator("> summary").click();
        await expect(page.getByRole("button", { name: /^Use .* for the project$/ }).first()).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
      },
    ],
    // The first file's "Attach to project" chooser open: its select and button are checked too.
    [
      "library",
      () => "/library",
      async (page) => {
        await page.locator(".library-attach > summary").first().click();
        await expect(page.getByLabel(/^Project for /).first()).toBeVisible();
        // A card's Details open: the file's name, id and provenance are checked too.
        await page.getByTestId("file-details").first().locator("> summary").click();
        await expect(page.getByTestId("provenance").first()).toBeVisible();
        // Opening it scrolled the page: back to the top, so the filters are not read as under the phone's sticky bar.
        await page.evaluate(() => window.scrollTo(0, 0));
      },
    ],
    ["account", () => "/account", (page) => expect(page.getByTestId("session")).toHaveCount(1)],
    // The Share dialog with a link made in it (its choices, the link, Copy link, the QR code; decision 0071).
    [
      "library share dialog",
      () => "/library",
      async (page) => {
        await page.getByTestId("share-control").first().click();
        const dialog = page.getByRole("dialog", { name: /^Share “/ });
        await dialog.getByRole("button", { name: "Create link" }).click();
        await expect(dialog.getByTestId("share-qr")).toBeVisible();
      },
    ],
    // The account's "Shared links" with a link in it.
    [
      "account shared links",
      (account) => `/account?a11y=${account.contentId}`,
      async (page) => {
        const id = new URL(page.url()).searchParams.get("a11y");
        expect((await page.request.post("/api/shares", { data: { kind: "content", id } })).status()).toBe(201);
        await page.reload();
        await expect(page.getByTestId("shared-link").first()).toBeVisible();
      },
    ],
    ["404", () => "/no-such-page"],
  ];
  for (const [name, url, ready] of screens) {
    test(`${name} has no axe violation and does not scroll sideways`, async ({ signedIn, account }) => {
      // The dashboard raises a toast on each of its four visits and waits for it: more time on a busy machine.
      if (ready === raisePlanToast) test.slow();
      await checkScreen(signedIn, url(account), ready);
    });
  }
});
