import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "../support/e2e-test";
import { DASHBOARD_TOOLS } from "../../app/common/tools";
import { signUpAndLogIn } from "../support/e2e-session";

// Decision 0023: the app shell around every signed-in screen, the drop-zone file picker, the wide layouts.
const REAL_MP3 = fs.readFileSync(path.resolve("public/static/music-demos/demo2.mp3"));
const studioNav = (page: Page) => page.getByRole("navigation", { name: "Studio" });
const account = (page: Page) => page.getByRole("region", { name: "Account" });

/** Each signed-in screen and the nav entry it belongs to. */
const SCREENS: [path: string, current: string][] = [
  ["/dashboard", "Dashboard"],
  ["/create", "Create"],
  ["/assistant", "AI Assistant"],
  ["/drawing", "Drawing Pad"],
  ["/music", "Music"],
  ["/aivideo", "AI Video"],
  ["/videos", "Video Hub"],
  ["/image", "Image Generator"],
  ["/voices", "Voices"],
  ["/voicememo", "Voice Memo"],
  ["/projects", "Projects"],
  ["/project/new", "Projects"],
  ["/camera", "Camera"],
  ["/camera-v2", "Camera"],
  ["/capcut", "AI x AI"],
];

test("the shell's nav is on every signed-in screen, the current one marked aria-current=page", async ({ page }) => {
  // Fifteen screens in one test: more time than one screen's test needs, on a busy machine.
  test.setTimeout(120_000);
  await signUpAndLogIn(page, "shell-nav");
  for (const [pathname, current] of SCREENS) {
    await page.goto(pathname);
    const nav = studioNav(page);
    await expect(nav, pathname).toBeVisible();
    // The dashboard and every tool of the dashboard's list (a tool added there is in the nav too).
    await expect(nav.getByRole("link"), pathname).toHaveCount(DASHBOARD_TOOLS.length + 1);
    const marked = nav.locator('a[aria-current="page"]');
    await expect(marked, pathname).toHaveCount(1);
    await expect(marked, pathname).toHaveAccessibleName(current);
    // The account in one place: email, plan, theme and Logout.
    await expect(account(page).getByText(/@example\.com/), pathname).toBeVisible();
    await expect(account(page).getByRole("button", { name: "Logout" }), pathname).toBeVisible();
  }
});

test("signed out, the pages the shell wraps send to /login and show no shell", async ({ page }) => {
  await page.goto("/voices");
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/capcut");
  await expect(page.getByRole("heading", { name: "AI x AI" })).toBeVisible();
  await expect(studioNav(page)).toHaveCount(0);
});

test.describe("on a phone, without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 667 } });

  test("the Menu drawer opens and navigates", async ({ page }) => {
    await signUpAndLogIn(page, "shell-drawer");
    await page.goto("/dashboard");
    const menu = page.locator(".shell-menu > summary");
    await expect(menu).toBeVisible();
    await expect(menu).toHaveText("Menu");
    // Closed: the links are not shown.
    await expect(studioNav(page).getByRole("link", { name: "Voices" })).toBeHidden();
    await menu.click();
    await expect(studioNav(page).getByRole("link", { name: "Voices" })).toBeVisible();
    await studioNav(page).getByRole("link", { name: "Voices" }).click();
    await expect(page).toHaveURL(/\/voices$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Voices");
    // The drawer is closed on the new page; opened, it marks where the person is.
    await expect(studioNav(page).getByRole("link", { name: "Voices" })).toBeHidden();
    await page.locator(".shell-menu > summary").click();
    await expect(studioNav(page).getByRole("link", { name: "Voices" })).toHaveAttribute("aria-current", "page");
  });

  test("nothing scrolls sideways on /voices, /videos and /project/new", async ({ page }) => {
    await signUpAndLogIn(page, "shell-overflow-nojs");
    for (const pathname of ["/voices", "/videos", "/project/new", "/dashboard", "/assistant"]) {
      await page.goto(pathname);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, pathname).toBeLessThanOrEqual(innerWidth);
    }
  });
});

test("on a phone with JavaScript, the drawer closes after a link and on Escape", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await signUpAndLogIn(page, "shell-drawer-js");
  await page.goto("/dashboard");
  const menu = page.locator(".shell-menu > summary");
  await menu.click();
  await studioNav(page).getByRole("link", { name: "Music" }).click();
  await expect(page).toHaveURL(/\/music$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Music");
  await expect(studioNav(page).getByRole("link", { name: "Music" })).toBeHidden();
  await menu.click();
  await expect(studioNav(page).getByRole("link", { name: "Music" })).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Escape");
  await expect(studioNav(page).getByRole("link", { name: "Music" })).toBeHidden();
  await expect(menu).toBeFocused();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the shell's theme toggle and Logout work", async ({ page }) => {
    await signUpAndLogIn(page, "shell-nojs");
    await page.goto("/music");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    // One label, saying what a press will do.
    await account(page).getByRole("button", { name: "Switch to light theme" }).click();
    // Back on the same screen, now light, and the choice is kept.
    await expect(page).toHaveURL(/\/music$/);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expect(account(page).getByRole("button", { name: "Switch to dark theme" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");

    await account(page).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/voices");
    await expect(page).toHaveURL(/\/login/);
  });

  test("the drop zone's native file input still submits", async ({ page }) => {
    await signUpAndLogIn(page, "dropzone-nojs");
    await page.goto("/voices");
    const zone = page.getByTestId("drop-zone");
    await zone.getByLabel("Upload MP3").setInputFiles({ name: "plain.mp3", mimeType: "audio/mpeg", buffer: REAL_MP3 });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "✅ Upload successful!" })).toBeVisible();
    await expect(page.getByTestId("voice-item").filter({ hasText: "plain.mp3" })).toBeVisible();
  });
});

test("with JavaScript, a file dropped on the drop zone is taken and uploads", async ({ page }) => {
  await signUpAndLogIn(page, "dropzone-js");
  await page.goto("/voices");
  await expect(page.getByText("No voices yet. Upload an MP3!")).toBeVisible();
  const zone = page.getByTestId("drop-zone");
  // A drag from the desktop: dragenter, dragover and drop carrying one file.
  const transfer = await page.evaluateHandle(
    (bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "dropped.mp3", { type: "audio/mpeg" }));
      return data;
    },
    [...REAL_MP3],
  );
  await zone.dispatchEvent("dragenter", { dataTransfer: transfer });
  await zone.dispatchEvent("dragover", { dataTransfer: transfer });
  await expect(zone).toHaveClass(/drop-zone-active/);
  await zone.dispatchEvent("drop", { dataTransfer: transfer });
  await expect(zone).not.toHaveClass(/drop-zone-active/);
  await expect(zone.getByText("Chosen: dropped.mp3")).toBeVisible();
  expect(await zone.getByLabel("Upload MP3").evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
    "dropped.mp3",
  );
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("voice-item").filter({ hasText: "dropped.mp3" })).toBeVisible();
});

/**
 * The two boxes of a wide layout: beside each other at 1280, stacked at 375. Two screens stack at
 * every width: the assistant is a chat (the replies above the box, docs/screens.md#assistant-conversations),
 * and the project editor's media choosers take the whole width (decision 0066).
 */
const LAYOUTS: {
  path: string;
  work: (page: Page) => ReturnType<Page["locator"]>;
  result: (page: Page) => ReturnType<Page["locator"]>;
  /** Stacked at every width; "result first" when the result is above the work. */
  stacked?: "work first" | "result first";
}[] = [
  {
    path: "/assistant",
    work: (page) => page.getByRole("form", { name: "Ask the assistant" }),
    result: (page) => page.getByRole("region", { name: "Reply" }),
    stacked: "result first",
  },
  {
    path: "/image",
    work: (page) => page.getByRole("form", { name: "Generate an image" }),
    result: (page) => page.getByRole("region", { name: "Result" }),
  },
  {
    path: "/aivideo",
    work: (page) => page.getByRole("form", { name: "Generate a video" }),
    result: (page) => page.getByRole("region", { name: "Video preview" }),
  },
  {
    path: "/drawing",
    work: (page) => page.locator(".sketch-frame"),
    result: (page) => page.getByRole("region", { name: "AI result" }),
  },
  {
    path: "/project/new",
    work: (page) => page.getByRole("form", { name: "Project" }),
    result: (page) => page.getByRole("region", { name: "Generators" }),
    stacked: "work first",
  },
];

for (const { width, height, beside } of [
  { width: 1280, height: 900, beside: true },
  { width: 375, height: 667, beside: false },
]) {
  test(`at ${width}px the work and its result are ${beside ? "side by side" : "stacked"}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signUpAndLogIn(page, `layout-${width}`);
    for (const layout of LAYOUTS) {
      await page.goto(layout.path);
      const work = (await layout.work(page).boundingBox())!;
      const result = (await layout.result(page).boundingBox())!;
      expect(work, layout.path).not.toBeNull();
      expect(result, layout.path).not.toBeNull();
      if (layout.stacked === "result first") {
        expect(work.y, `${layout.path}: the work below the result`).toBeGreaterThanOrEqual(result.y + result.height);
      } else if (beside && !layout.stacked) {
        expect(result.x, `${layout.path}: the result right of the work`).toBeGreaterThanOrEqual(work.x + work.width);
        expect(result.y, `${layout.path}: on the same row`).toBeLessThan(work.y + work.height);
      } else {
        expect(result.y, `${layout.path}: the result below the work`).toBeGreaterThanOrEqual(work.y + work.height);
        expect(Math.abs(result.x - work.x), `${layout.path}: one column`).toBeLessThan(2);
      }
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, `${layout.path} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
    }
  });
}

test("at 375px nothing scrolls sideways on /voices, /videos and /project/new", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await signUpAndLogIn(page, "shell-overflow");
  for (const pathname of ["/voices", "/videos", "/project/new"]) {
    await page.goto(pathname);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, pathname).toBeLessThanOrEqual(innerWidth);
    // The file picker is never wider than its card.
    if (pathname !== "/project/new") {
      const card = (await page.locator(".media-upload").boundingBox())!;
      const zone = (await page.getByTestId("drop-zone").boundingBox())!;
      expect(zone.x + zone.width, pathname).toBeLessThanOrEqual(card.x + card.width);
    }
  }
});

test("the icons come from one cached sprite of lucide symbols", async ({ page }) => {
  await signUpAndLogIn(page, "shell-icons");
  await page.goto("/dashboard");
  const href = await page.locator(".dashboard-header svg use").first().getAttribute("href");
  expect(href).toMatch(/^\/icons\.svg\?v=\w+#house$/);
  // Asked as the signed-in browser asks it: still cached for good (not a personal page).
  const sprite = await page.request.get(href!.split("#")[0]);
  expect(sprite.status()).toBe(200);
  expect(sprite.headers()["content-type"]).toContain("image/svg+xml");
  expect(sprite.headers()["cache-control"]).toContain("immutable");
  const body = await sprite.text();
  expect(body).toContain('<symbol id="house" viewBox="0 0 24 24">');
  // Every icon the page names is in the sprite.
  const names = await page
    .locator("svg.i use")
    .evaluateAll((uses) => [...new Set(uses.map((use) => use.getAttribute("href")!.split("#")[1]))]);
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(body, name).toContain(`<symbol id="${name}"`);
  // The icons draw: the symbol gives the <use> a box.
  const box = await page.locator(".dashboard-header svg").first().boundingBox();
  expect(box!.width).toBeGreaterThan(10);
  // The nav's and the tool grid's icons are CSS masks of the sprite's views, one per tool.
  const maskOf = (selector: string) =>
    page.locator(selector).evaluate((element) => getComputedStyle(element, "::before").maskImage);
  expect(await maskOf('.shell-nav a[href="/voices"]')).toMatch(/\/icons\.svg\?v=\w+#mic-view/);
  expect(await maskOf('.tool-grid a[href="/create"]')).toMatch(/\/icons\.svg\?v=\w+#pen-line-view/);
  expect(body).toContain('<view id="mic-view"');
  expect(body).toContain('<view id="pen-line-view"');
});

// One theme control a page, and a signed-in person's 404 inside the shell.
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`one theme control a screen, its label what a press does, at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "one-theme");
    for (const pathname of ["/dashboard", "/music", "/camera-v2"]) {
      await page.goto(pathname);
      // Counted shown or not (the phone's drawer is closed): no second control hides in it.
      const themeControls = page.getByRole("button", { name: /theme|dark mode|light mode/i, includeHidden: true });
      await expect(themeControls, pathname).toHaveCount(1);
      await expect(themeControls, pathname).toHaveText("Switch to light theme");
    }
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expect(page.getByRole("button", { name: "Switch to dark theme" })).toBeVisible();
  });

  test(`a signed-in person's 404 sits inside the app shell, at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "shell-404");
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
    // On a phone the shell's nav is in the top bar's Menu drawer.
    if (viewport.width < 640) await page.getByText("Menu", { exact: true }).click();
    await expect(studioNav(page).getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(account(page).getByText(/@example\.com/)).toBeVisible();
    if (viewport.width < 640) await page.getByText("Menu", { exact: true }).click();
    await page.getByRole("link", { name: "Return Home" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
}
