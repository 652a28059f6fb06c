import { expect, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";
import { videoFrames } from "../support/e2e-media";

/** Chooses the theme the way the toggle does (the preferences cookie). */
async function chooseTheme(page: Page, theme: "dark" | "light") {
  const answer = await page.request.post("/preferences", {
    form: { intent: "theme", theme, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

/** The relative luminance of a computed `rgb(...)` colour (WCAG). */
const luminance = (rgb: string) => {
  const [r, g, b] = rgb
    .match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map((v) => Number(v) / 255);
  const channel = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Where toasts stand, how many, closing and pausing: tests/e2e/shell-and-toasts.spec.ts.
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test(`the welcome toast lies over none of the navigation and follows the theme at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    for (const theme of ["dark", "light"] as const) {
      // The welcome shows once per sign-in: each theme's check signs a new person in.
      await signUpAndLogIn(page, "toasts");
      await chooseTheme(page, theme);
      await page.goto("/dashboard");
      const toast = page.locator(".Toastify__toast").filter({ hasText: "Welcome back, Free user!" });
      await expect(toast).toBeVisible();
      // Entrance finished: the box is where it stays.
      await expect
        .poll(() =>
          toast.evaluate((element) => element.getAnimations().filter((a) => a.playState === "running").length),
        )
        .toBe(0);
      const box = (await toast.boundingBox())!;
      // The sidebar (with its account corner) on a desktop, the top bar with Menu on a phone.
      const navigation = (await page.locator(".shell-bar").boundingBox())!;
      expect(overlaps(box, navigation), `${theme}: the toast lies over the navigation`).toBe(false);
      // Dark toasts in dark mode, light ones in light mode.
      const background = await toast.evaluate((element) => getComputedStyle(element).backgroundColor);
      if (theme === "dark") expect(luminance(background), background).toBeLessThan(0.1);
      else expect(luminance(background), background).toBeGreaterThan(0.6);
    }
  });
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`the welcome toast shows once per sign-in, and no toast outlives a logout at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    // Without motion a dismissed toast leaves at once (its exit animation would keep it in the page a moment).
    await page.emulateMedia({ reducedMotion: "reduce" });
    const { email, password } = await signUpAndLogIn(page, "welcome-once");
    const welcome = page.locator(".Toastify__toast").filter({ hasText: "Welcome back, Free user!" });
    await page.goto("/dashboard");
    await expect(welcome).toBeVisible();
    // Later visits of the same sign-in: the dashboard is hydrated (a plan toast shows) and no welcome.
    for (const visit of [() => page.reload(), () => page.goto("/create").then(() => page.goto("/dashboard"))]) {
      await expect(welcome).toHaveCount(0, { timeout: 8000 });
      await visit();
      await page.getByRole("button", { name: "Pro", exact: true }).click();
      await expect(page.getByText("Pro Plan Activated!")).toBeVisible();
      await expect(welcome).toHaveCount(0);
    }
    // Logout while a toast shows: the login page has none.
    await page.getByRole("button", { name: "Ultimate", exact: true }).click();
    await expect(page.getByText("Ultimate Plan Activated!")).toBeVisible();
    // On a phone the account corner is in the Menu drawer.
    if (viewport.width < 640) await page.getByText("Menu", { exact: true }).click();
    await page.getByRole("region", { name: "Account" }).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator(".Toastify__toast")).toHaveCount(0, { timeout: 1000 });
    // A new sign-in is welcomed again.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Welcome back, Ultimate user!")).toBeVisible();
  });
}

/** Every animation or transition longer than a hundredth of a millisecond (the toast's hidden countdown aside). */
function movingThings(page: Page) {
  return page.evaluate(() => {
    const seconds = (value: string) =>
      Math.max(
        ...value.split(",").map((part) => (part.trim().endsWith("ms") ? parseFloat(part) / 1000 : parseFloat(part))),
      );
    const found: string[] = [];
    for (const element of document.querySelectorAll("*")) {
      if (element.classList.contains("Toastify__progress-bar")) continue;
      for (const pseudo of [null, "::before", "::after"]) {
        const style = getComputedStyle(element, pseudo);
        const moving =
          (style.animationName !== "none" && seconds(style.animationDuration) > 0.0001) ||
          (style.transitionProperty !== "none" && seconds(style.transitionDuration) > 0.0001);
        if (moving) found.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")}${pseudo ?? ""}`);
      }
    }
    return found;
  });
}

/**
 * The toast's countdown bar shows (or not), and assistive technology never reads it either way
 * (react-toastify names it in English only).
 */
async function expectCountdownBar(page: Page, shown: boolean) {
  const bar = page.locator(".Toastify__progress-bar--wrp");
  await expect(bar.getByRole("progressbar", { includeHidden: true })).toHaveAttribute("aria-hidden", "true");
  await expect(bar).toHaveCSS("opacity", shown ? "1" : "0");
}

test("reduced motion: no animation or transition moves, the toast's countdown bar is hidden", async ({ page }) => {
  await signUpAndLogIn(page, "motion");
  // Without the preference, the toast slides in and its countdown bar shows (the check below can see motion).
  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
  expect((await movingThings(page)).length).toBeGreaterThan(0);
  await expectCountdownBar(page, true);

  await page.emulateMedia({ reducedMotion: "reduce" });
  for (const path of ["/", "/dashboard", "/aivideo", "/voices", "/camera", "/login"]) {
    await page.goto(path);
    expect(await movingThings(page), path).toEqual([]);
  }
  // The welcome shows once per sign-in: a new one raises it again.
  await signUpAndLogIn(page, "motion-again");
  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
  await expectCountdownBar(page, false);
  expect(await movingThings(page)).toEqual([]);
  // The hidden bar still times the close: the dashboard's toast goes after its 3 s.
  await expect(page.getByText("Welcome back, Free user!")).toHaveCount(0, { timeout: 8000 });
});

/**
 * A camera whose picture never changes (a black canvas, redrawn every frame so frames keep coming):
 * all that moves in the Matrix filter's preview is then its glyph rain.
 */
async function stillCamera(page: Page) {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 640;
      canvas.height = 480;
      const context = canvas.getContext("2d")!;
      const paint = () => {
        context.fillStyle = "#000";
        context.fillRect(0, 0, canvas.width, canvas.height);
        requestAnimationFrame(paint);
      };
      paint();
      return canvas.captureStream(30);
    };
  });
}

async function previewChanges(page: Page) {
  await page.goto("/camera-v2");
  const canvas = page.locator("canvas.camera-canvas");
  await expect(page.getByRole("button", { name: "Capture" })).toBeEnabled();
  const snapshot = () => canvas.evaluate((element: HTMLCanvasElement) => element.toDataURL());
  const first = await snapshot();
  // A dozen camera frames, each drawn on the canvas (the rain moves at least a third of a row every frame).
  await videoFrames(page.locator("video.camera-source"), 12);
  return (await snapshot()) !== first;
}

test("reduced motion: Camera V2's Matrix glyph rain stands still", async ({ page }) => {
  await signUpAndLogIn(page, "motion-camera");
  await stillCamera(page);
  expect(await previewChanges(page)).toBe(true);
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await previewChanges(page)).toBe(false);
});
