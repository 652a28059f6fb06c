import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * Right to left (docs/translating.md): with the browser asking for Arabic the page is dir="rtl" and the
 * layout mirrors through CSS logical properties (app/styles): the shell's sidebar on the right, the way
 * back's arrow pointing right, and no screen scrolling sideways, at a laptop's and a phone's width.
 * English stays left to right (and its layout is held by shell-polish.spec.ts and accessibility.spec.ts).
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];

/** How far the page scrolls sideways: 0 when it fits its window. */
function sidewaysScroll(page: Page) {
  return page.evaluate(() => {
    const scroller = document.scrollingElement!;
    return scroller.scrollWidth - scroller.clientWidth;
  });
}

/** The boxes of the first element each selector finds (null where none is shown). */
function boxes(page: Page, selectors: string[]) {
  return page.evaluate((list) => {
    return list.map((selector) => {
      const element = document.querySelector(selector);
      if (!element) return null;
      const { left, right, width, height } = element.getBoundingClientRect();
      return width > 0 && height > 0 ? { left, right } : null;
    });
  }, selectors);
}

/** Every language menu shown lies wholly inside the window. */
async function expectLanguageMenusInside(page: Page, screen: string) {
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll(".language-menu")]
      .map((menu) => menu.getBoundingClientRect())
      .filter((box) => box.width > 0 && (box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5))
      .map((box) => `${Math.round(box.left)}..${Math.round(box.right)}`),
  );
  expect(outside, `${screen}: a language menu outside the window`).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  test.describe(`Arabic at ${viewport.width}x${viewport.height}`, () => {
    // Chromium's own Accept-Language (from the locale) replaces an extra header's on navigations: both say Arabic.
    test.use({ viewport, locale: "ar", extraHTTPHeaders: { "Accept-Language": "ar" } });

    test("every screen is right to left and none scrolls sideways", async ({ page }) => {
      // Nine screens on a shared, loaded machine.
      test.setTimeout(240_000);
      for (const screen of ["/", "/login", "/register"]) {
        await page.goto(screen);
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        await expect(page.locator("html")).toHaveAttribute("lang", "ar");
        await expect.poll(() => sidewaysScroll(page), { message: screen }).toBeLessThanOrEqual(0);
        await expectLanguageMenusInside(page, screen);
      }

      await signUpAndLogIn(page, "rtl");
      const content = await page.request.post("/api/content", {
        data: { title: "Harbour notes (draft 2).", body: "Gulls over the harbour at dawn, 6:40 AM." },
      });
      expect(content.ok(), await content.text()).toBe(true);
      const contentId = ((await content.json()) as { id: string }).id;
      const mp3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));
      const voice = await page.request.post("/api/voice/upload", {
        multipart: { file: { name: "a-rather-long-narration-name-2024.mp3", mimeType: "audio/mpeg", buffer: mp3 } },
      });
      expect(voice.ok(), await voice.text()).toBe(true);

      for (const screen of ["/dashboard", `/content/${contentId}`, "/library", "/account", "/assistant", "/camera"]) {
        await page.goto(screen);
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        await expect(page.locator(".shell-content h1").first()).toBeVisible();
        await expect.poll(() => sidewaysScroll(page), { message: screen }).toBeLessThanOrEqual(0);
        await expectLanguageMenusInside(page, screen);
      }
    });

    test("the shell mirrors: its sidebar (or its top bar's brand) on the right, the way back pointing right", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "rtl-shell");
      await page.goto("/library");
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.locator(".page-back")).toBeVisible();
      const [bar, content, brand, menu, back, title] = (await boxes(page, [
        ".shell-bar",
        ".shell-content",
        ".shell-brand",
        ".shell-menu > summary",
        ".page-back",
        ".page-header h1",
      ]))!;
      const width = viewport.width;
      if (width >= 960) {
        // The sidebar is the right-hand column, the screen's content to its left.
        expect(bar!.right).toBeGreaterThan(width - 2);
        expect(bar!.left).toBeGreaterThanOrEqual(content!.right - 1);
      } else {
        // The top bar: the brand at the right, the Menu button at the left.
        expect(brand!.right).toBeGreaterThan(width - 40);
        expect(menu!.right).toBeLessThanOrEqual(brand!.left);
      }
      // The way back starts the header from the right.
      expect(back!.right).toBeGreaterThan(title!.left);
      expect(back!.right).toBeGreaterThan(content!.right - 60);
      // Its arrow is drawn mirrored: it points right, the way back in Arabic.
      const arrow = page.locator(".page-back .i");
      await expect(arrow).toHaveCSS("transform", "matrix(-1, 0, 0, 1, 0, 0)");
      // Up and down keep their way (the dashboard's Move up in edit mode is not a left or right).
      const transforms = await page.evaluate(() =>
        [...document.querySelectorAll(".i:has(> use[href$='#play']), .i:has(> use[href$='#arrow-up'])")].map(
          (icon) => getComputedStyle(icon).transform,
        ),
      );
      for (const transform of transforms) expect(transform).toBe("none");
    });
  });
}

test.describe("English at 1280x800", () => {
  test.use({ viewport: { width: 1280, height: 800 }, locale: "en", extraHTTPHeaders: { "Accept-Language": "en" } });

  test("stays left to right: the sidebar on the left, the way back's arrow as drawn", async ({ page }) => {
    await signUpAndLogIn(page, "ltr-shell");
    await page.goto("/library");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    const [bar, content] = (await boxes(page, [".shell-bar", ".shell-content"]))!;
    expect(bar!.left).toBeLessThan(2);
    expect(content!.left).toBeGreaterThanOrEqual(bar!.right - 1);
    await expect(page.locator(".page-back .i")).toHaveCSS("transform", "none");
  });
});
