import fs from "node:fs";
import path from "node:path";
import { expect, hydrated, test, type Browser, type Locator, type Page } from "../support/e2e-test";
import { appDialog } from "../support/app-dialog";
import { generateVideo } from "../support/e2e-generated-video";
import { PASSWORD, signUpAndLogIn } from "../support/e2e-session";
import { PNG_BYTES, webmBytes } from "../support/media";

/**
 * One way to delete, everywhere (docs/screens.md#dialogs, decision 0067): with JavaScript the app's
 * own dialog asks, named by a question with the item's name in it, the focus on Cancel; Escape and
 * Cancel keep the item and give the focus back to the Delete pressed; Delete deletes. Without
 * JavaScript the screen asks on its page, and the panel's Delete deletes while Cancel keeps it.
 */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];
const REAL_MP3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));

interface Kind {
  name: string;
  /** Makes the item for the signed-in person; where its screen is. */
  setup: (page: Page, browser: Browser, baseURL: string | undefined) => Promise<void>;
  screen: string;
  /** The row's button that deletes the item. */
  button: (page: Page) => Locator;
  /** The question, with the item's name (the no-JavaScript panel's may add words: `plainQuestion`). */
  question: string | RegExp;
  plainQuestion?: RegExp;
  /** What the no-JavaScript panel says under its question. */
  plainDetail?: string;
  /** What the question's detail says (content: its title under SPEC's question). */
  detail?: string;
  confirmLabel?: string;
  /** How many of the item's kind the screen lists (the item, plus any that stay). */
  count: (page: Page) => Locator;
  /** The count before (after the delete it is one less). */
  before: number;
}

const KINDS: Kind[] = [
  {
    name: "content",
    setup: async (page) => {
      expect((await page.request.post("/api/content", { data: { title: "Groceries", body: "" } })).status()).toBe(201);
    },
    screen: "/dashboard",
    button: (page) => page.getByRole("button", { name: "Delete Groceries", exact: true }),
    question: "Delete this content?",
    detail: "Groceries",
    plainDetail: "Groceries",
    count: (page) => page.getByRole("list", { name: "Content items" }).getByRole("link", { name: "Groceries" }),
    before: 1,
  },
  {
    name: "voice",
    setup: async (page) => {
      const answer = await page.request.post("/api/voice/upload", {
        multipart: { file: { name: "Narration.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 } },
      });
      expect(answer.ok()).toBe(true);
    },
    screen: "/voices",
    button: (page) => page.getByRole("button", { name: "Delete Narration.mp3", exact: true }),
    question: "Delete “Narration.mp3”?",
    count: (page) => page.getByTestId("voice-item"),
    before: 1,
  },
  {
    name: "uploaded video",
    setup: async (page) => {
      const answer = await page.request.post("/api/videos/upload", {
        multipart: { file: { name: "Holiday.mov", mimeType: "video/webm", buffer: webmBytes() } },
      });
      expect(answer.ok()).toBe(true);
    },
    screen: "/videos",
    button: (page) => page.getByRole("button", { name: "Delete Holiday.mov", exact: true }),
    question: "Delete “Holiday.mov”?",
    count: (page) => page.getByTestId("video-item"),
    before: 1,
  },
  {
    name: "generated video",
    setup: async (page) => {
      await generateVideo(page.request, "Sunrise over the bay");
    },
    screen: "/videos",
    button: (page) => page.getByRole("button", { name: "Delete “Sunrise over the bay”", exact: true }),
    question: "Delete “Sunrise over the bay”?",
    count: (page) => page.getByTestId("generated-item"),
    before: 1,
  },
  {
    name: "library file",
    setup: async (page) => {
      const answer = await page.request.post("/api/library/upload", {
        multipart: { kind: "photo", file: { name: "Sunset.png", mimeType: "image/png", buffer: PNG_BYTES } },
      });
      expect(answer.status()).toBe(201);
    },
    screen: "/library",
    button: (page) => page.getByRole("button", { name: "Delete Sunset.png", exact: true }),
    question: "Delete “Sunset.png”?",
    plainQuestion: /Sunset\.png/,
    detail: "Delete this file? It is removed from every project that uses it.",
    count: (page) => page.getByTestId("library-item"),
    before: 1,
  },
  {
    name: "project",
    setup: async (page) => {
      expect((await page.request.post("/api/project/create", { data: { title: "Launch film" } })).ok()).toBe(true);
    },
    screen: "/projects",
    button: (page) => page.getByRole("button", { name: "Delete Launch film", exact: true }),
    question: "Delete “Launch film”?",
    count: (page) => page.getByTestId("project-card").filter({ visible: true }),
    before: 1,
  },
  {
    name: "API token",
    setup: async (page) => {
      const answer = await page.request.post("/api/account/tokens", { data: { name: "Nightly backup" } });
      expect(answer.status()).toBe(201);
    },
    screen: "/account",
    button: (page) => page.getByRole("button", { name: "Revoke Nightly backup", exact: true }),
    question: "Revoke “Nightly backup”?",
    confirmLabel: "Revoke",
    count: (page) => page.getByTestId("api-token"),
    before: 1,
  },
  {
    name: "session",
    // A second browser signed in as the same person: a session this one can sign out.
    setup: async (page, browser, baseURL) => {
      const me = (await (await page.request.get("/api/auth/me")).json()) as { email: string };
      const other = await browser.newContext({ baseURL });
      const login = await other.request.post("/login", {
        form: { email: me.email, password: PASSWORD },
        maxRedirects: 0,
      });
      expect(login.status()).toBe(302);
      await other.close();
    },
    screen: "/account",
    button: (page) => page.getByRole("button", { name: /^Sign out .+, last used / }),
    question: /^Sign out “.+”\?$/,
    confirmLabel: "Sign out",
    count: (page) => page.getByTestId("session"),
    before: 2,
  },
];

for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}×${viewport.height}`;

  test.describe(`delete asks in the app's dialog (JavaScript on, ${size})`, () => {
    test.use({ viewport });
    for (const kind of KINDS) {
      test(`${kind.name}: Escape and Cancel keep it and give the focus back; Delete deletes`, async ({
        page,
        browser,
        baseURL,
      }) => {
        test.setTimeout(120_000);
        await signUpAndLogIn(page, "delete-dialog");
        await kind.setup(page, browser, baseURL);
        await page.goto(kind.screen);
        await hydrated(page);
        const confirmLabel = kind.confirmLabel ?? "Delete";
        const dialog = appDialog(page, kind.question);
        await expect(kind.count(page)).toHaveCount(kind.before);

        // Escape: the dialog goes, the item stays, the focus is back on the button pressed.
        await kind.button(page).click();
        await expect(dialog).toBeVisible();
        await expect(dialog).toHaveAttribute("role", "alertdialog");
        await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
        if (kind.detail) await expect(dialog).toHaveAccessibleDescription(kind.detail);
        await page.keyboard.press("Escape");
        await expect(dialog).toHaveCount(0);
        await expect(kind.button(page)).toBeFocused();
        await expect(kind.count(page)).toHaveCount(kind.before);

        // Cancel: the same.
        await kind.button(page).click();
        await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
        await expect(dialog).toHaveCount(0);
        await expect(kind.button(page)).toBeFocused();
        await expect(kind.count(page)).toHaveCount(kind.before);

        // Delete: gone at once, and still gone after a reload (once the screen's action has answered:
        // the row goes before the post does, and a reload then would cancel it).
        await kind.button(page).click();
        const answered = page.waitForResponse(
          (response) => response.request().method() === "POST" && !response.url().includes("/preferences"),
        );
        await dialog.getByRole("button", { name: confirmLabel, exact: true }).click();
        await expect(dialog).toHaveCount(0);
        await expect(kind.count(page)).toHaveCount(kind.before - 1);
        await answered;
        await page.reload();
        await expect(kind.count(page)).toHaveCount(kind.before - 1);
      });
    }
  });

  test.describe(`delete asks on the page (JavaScript off, ${size})`, () => {
    test.use({ viewport, javaScriptEnabled: false });
    for (const kind of KINDS) {
      test(`${kind.name}: the confirmation page; Cancel keeps it, Delete deletes`, async ({
        page,
        browser,
        baseURL,
      }) => {
        test.setTimeout(120_000);
        await signUpAndLogIn(page, "delete-page");
        await kind.setup(page, browser, baseURL);
        await page.goto(kind.screen);
        const confirmLabel = kind.confirmLabel ?? "Delete";
        const panel = page.getByRole("alertdialog", { name: kind.plainQuestion ?? kind.question });

        await kind.button(page).click();
        await expect(panel).toBeVisible();
        if (kind.plainDetail) await expect(panel).toHaveAccessibleDescription(kind.plainDetail);
        await panel.getByRole("link", { name: "Cancel", exact: true }).click();
        await expect(panel).toHaveCount(0);
        await expect(kind.count(page)).toHaveCount(kind.before);

        await kind.button(page).click();
        await panel.getByRole("button", { name: confirmLabel, exact: true }).click();
        await expect(panel).toHaveCount(0);
        await expect(kind.count(page)).toHaveCount(kind.before - 1);
      });
    }
  });

  test.describe(`a generated clip plays like an upload (${size})`, () => {
    test.use({ viewport });
    test("Play opens the clip in the Video Hub's player; Close ends it", async ({ page }) => {
      test.setTimeout(120_000);
      await signUpAndLogIn(page, "generated-play");
      const clip = await generateVideo(page.request, "Waves at dusk");
      await page.goto("/videos");
      await hydrated(page);
      const play = page.getByTestId("generated-item").getByRole("link", { name: "Play “Waves at dusk”" });
      await expect(play).toHaveAttribute("href", clip.url);
      await play.click();
      const player = page.getByRole("dialog", { name: "Playing Waves at dusk" });
      await expect(player).toBeVisible();
      const video = player.getByTestId("modal-video");
      await expect(video).toHaveAttribute("src", clip.url);
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
      await player.getByRole("button", { name: "Close player" }).click();
      await expect(player).toBeHidden();
      await expect(page).toHaveURL(/\/videos$/);
    });
  });
}

test.describe("a generated clip's Play without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("is a link to the clip itself", async ({ page }) => {
    test.setTimeout(120_000);
    await signUpAndLogIn(page, "generated-play-nojs");
    const clip = await generateVideo(page.request, "Rain on glass");
    await page.goto("/videos");
    const play = page.getByTestId("generated-item").getByRole("link", { name: "Play “Rain on glass”" });
    await expect(play).toHaveAttribute("href", clip.url);
    expect((await page.request.get(clip.url)).status()).toBe(200);
  });
});
