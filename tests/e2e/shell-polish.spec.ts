import path from "node:path";
import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/** Chooses the theme the way the toggle does (the preferences cookie). */
async function chooseTheme(page: Page, theme: "dark" | "light") {
  const answer = await page.request.post("/preferences", {
    form: { intent: "theme", theme, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

/**
 * How far down the screen's tool starts: the top of the first thing one works with in the page
 * (a form, a card, a drop zone, a media list, a canvas or video, a field or button, a header action, the promo's
 * links), the way back aside.
 */
function toolTop(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector(".shell-content")!;
    const selector =
      "form, .card, .drop-zone, .media-list, canvas, video, input:not([type=hidden]), select, textarea, button, .page-header-actions a, .promo-points a";
    const tops = [...main.querySelectorAll(selector)]
      .filter((element) => !element.closest(".page-back"))
      .filter((element) => !(element.closest(".page-header") && !element.closest(".page-header-actions")))
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => box.top);
    return Math.min(...tops);
  });
}

const SCREENS = [
  "/create",
  "/voices",
  "/videos",
  "/camera",
  "/camera-v2",
  "/voicememo",
  "/assistant",
  "/image",
  "/drawing",
  "/aivideo",
  "/music",
  "/capcut",
  "/projects",
  "/library",
  "/feedback",
  "/account",
];

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("every tool screen shows its tool within 200 px of the top", async ({ page }) => {
      // Eighteen screens on a shared, loaded machine.
      test.setTimeout(300_000);
      await signUpAndLogIn(page, "tool-top");
      const content = await page.request.post("/api/content", { data: { title: "Harbour", body: "Gulls." } });
      const project = await page.request.post("/api/project/create", { data: { title: "Short film" } });
      const contentId = ((await content.json()) as { id: string }).id;
      const projectId = String(((await project.json()) as { id: string | number }).id);
      for (const screen of [...SCREENS, `/content/${contentId}`, `/project/${projectId}`]) {
        await page.goto(screen);
        await expect(page.locator(".shell-content h1").first()).toBeVisible();
        // Some tools come with a chunk of their own: measured once they are drawn.
        await expect.poll(() => toolTop(page), { message: screen }).toBeLessThanOrEqual(200);
        // The way back and the title are whole on the screen.
        const back = page.locator(".page-back").first();
        if (await back.count()) await expect(back).toBeInViewport({ ratio: 1 });
      }
    });

    test("the landing page offers a signed-in person the dashboard and Logout, not Register and Login", async ({
      page,
    }) => {
      await page.goto("/");
      const actions = page.getByRole("navigation", { name: "Get started" });
      await expect(actions.getByRole("link", { name: "Register" })).toBeVisible();
      await expect(actions.getByRole("button", { name: "Logout" })).toHaveCount(0);
      await signUpAndLogIn(page, "landing-in");
      await page.goto("/");
      await expect(actions.getByRole("link", { name: "Open dashboard" })).toBeVisible();
      await expect(actions.getByRole("link", { name: "Register" })).toHaveCount(0);
      await expect(actions.getByRole("link", { name: "Login" })).toHaveCount(0);
      await expect(actions.getByRole("link", { name: "Give Feedback" })).toBeVisible();
      await actions.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    test("AI x AI's bullets link to the tools they name", async ({ page }) => {
      await signUpAndLogIn(page, "capcut");
      await page.goto("/capcut");
      const points = page.locator(".promo-points");
      for (const [name, href] of [
        ["AI Assistant", "/assistant"],
        ["Drawing Pad", "/drawing"],
        ["AI Video", "/aivideo"],
        ["voices", "/voices"],
        ["music", "/music"],
        ["video", "/videos"],
        ["images", "/image"],
        ["Project", "/projects"],
      ])
        await expect(points.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      await points.getByRole("link", { name: "Drawing Pad" }).click();
      await expect(page).toHaveURL(/\/drawing$/);
    });

    test("a disabled Capture looks disabled in both themes: no accent, no glow, dimmed, not-allowed", async ({
      page,
    }) => {
      await signUpAndLogIn(page, "capture-off");
      // A camera that never answers: Capture waits, disabled.
      await page.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () => new Promise<MediaStream>(() => {});
      });
      for (const theme of ["dark", "light"] as const) {
        await chooseTheme(page, theme);
        await page.goto("/camera");
        const capture = page.locator("button.capture-button");
        await expect(capture).toBeDisabled();
        const style = await capture.evaluate((element) => {
          const computed = getComputedStyle(element);
          const accent = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim();
          const probe = document.createElement("span");
          probe.style.color = accent;
          document.body.append(probe);
          const accentRgb = getComputedStyle(probe).color;
          probe.remove();
          return {
            opacity: Number(computed.opacity),
            boxShadow: computed.boxShadow,
            cursor: computed.cursor,
            background: computed.backgroundColor,
            accentRgb,
          };
        });
        expect(style.opacity, theme).toBeLessThan(0.7);
        expect(style.boxShadow, theme).toBe("none");
        expect(style.cursor, theme).toBe("not-allowed");
        expect(style.background, theme).not.toBe(style.accentRgb);
      }
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ]) {
    test(`landing signed in, AI x AI's links and a themed file picker that uploads at ${viewport.width}x${viewport.height}`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signUpAndLogIn(page, "polish-nojs");
      await page.goto("/capcut");
      await page.locator(".promo-points").getByRole("link", { name: "AI Video" }).click();
      await expect(page).toHaveURL(/\/aivideo$/);
      // The file picker: the real input, in the theme's button style, and it uploads.
      for (const theme of ["dark", "light"] as const) {
        await chooseTheme(page, theme);
        await page.goto("/voices");
        const picker = page.locator('input[type="file"]');
        const look = await picker.evaluate((element) => {
          const button = getComputedStyle(element, "::file-selector-button");
          const own = getComputedStyle(element);
          return { radius: button.borderTopLeftRadius, border: own.borderTopStyle, background: button.backgroundColor };
        });
        expect(look.border, theme).toBe("solid");
        expect(parseFloat(look.radius), theme).toBeGreaterThan(8);
        // Not the browser's grey button.
        expect(look.background, theme).not.toBe("rgb(239, 239, 239)");
      }
      await page.locator('input[type="file"]').setInputFiles(path.resolve("public/static/music-demos/demo2.mp3"));
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(page.getByText("demo2", { exact: false }).first()).toBeVisible();
      // The landing page for someone signed in, and its Logout as a plain form.
      await page.goto("/");
      const actions = page.getByRole("navigation", { name: "Get started" });
      await expect(actions.getByRole("link", { name: "Open dashboard" })).toBeVisible();
      await expect(actions.getByRole("link", { name: "Register" })).toHaveCount(0);
      await expect(actions.getByRole("link", { name: "Login" })).toHaveCount(0);
      await actions.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto("/");
      await expect(actions.getByRole("link", { name: "Register" })).toBeVisible();
    });
  }
});
