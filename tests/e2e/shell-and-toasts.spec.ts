import path from "node:path";
import { expect, test, type Locator, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const toasts = (page: Page) => page.locator(".Toastify__toast");
const MP3 = path.resolve("public/static/music-demos/demo2.mp3");

/** Every toast shown has finished its entrance (its box is where it stays). */
const settled = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter(
              (a) =>
                a.playState === "running" &&
                !(a.effect as KeyframeEffect).target?.classList.contains("Toastify__progress-bar"),
            ).length,
      ),
    )
    .toBe(0);

/**
 * A toast's countdown: react-toastify closes a toast when the animation of its progress bar ends
 * (pausing a toast pauses that animation), so where the animation stands is how long it has left.
 */
const countdown = (toast: Locator) =>
  toast.locator(".Toastify__progress-bar--animated").evaluate((bar) => {
    const [animation] = bar.getAnimations();
    return { state: animation?.playState ?? "none", time: Number(animation?.currentTime ?? Number.NaN) };
  });

/** The toast's countdown runs (so a hold seen after it comes from what the test does). */
const countingDown = (toast: Locator) => expect.poll(async () => (await countdown(toast)).state).toBe("running");

/**
 * The toast waits: its countdown is paused, where it stopped, and stays there over the next frames (a
 * paused animation never ends, so the toast never closes on its own while held); it is still shown.
 */
async function held(page: Page, toast: Locator) {
  await expect.poll(async () => (await countdown(toast)).state).toBe("paused");
  const { time } = await countdown(toast);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await countdown(toast)).toEqual({ state: "paused", time });
  await expect(toast).toHaveAttribute("data-in", "true");
  await expect(toast).toBeVisible();
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  const phone = viewport.width < 960;
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("toasts stand at the top, clear of the navigation; three at most, the oldest going", async ({ page }) => {
      await signUpAndLogIn(page, "toast-place");
      // The window losing focus holds the toasts (react-toastify's pauseOnFocusLoss), so the dashboard's
      // 3 s do not run out between the steps on a loaded machine; after each entrance, whose end sets
      // a toast going again.
      const hold = async () => {
        await settled(page);
        await page.evaluate(() => window.dispatchEvent(new Event("blur")));
      };
      await page.goto("/dashboard");
      const welcome = toasts(page).filter({ hasText: "Welcome back, Free user!" });
      await expect(welcome).toBeVisible();
      await hold();
      // Shown toasts: one sent away is still in the page for its exit animation, no longer "in".
      const shown = page.locator('.Toastify__toast[data-in="true"]');
      let most = 0;
      const sample = async () => (most = Math.max(most, await shown.count()));
      for (const plan of ["Pro", "Ultimate", "Free"]) {
        // Pressed in the page: the held toasts may stand over the dashboard's plan buttons at the top right.
        await page.getByRole("button", { name: plan, exact: true }).evaluate((button: HTMLElement) => button.click());
        await expect(toasts(page).filter({ hasText: `${plan} Plan Activated!` })).toBeVisible();
        await sample();
        await hold();
      }
      // The fourth sent the oldest (the welcome) away at once: three show, the newest among them.
      await expect(welcome).toHaveCount(0);
      await expect(shown).toHaveCount(3);
      expect(most).toBeLessThanOrEqual(3);
      await settled(page);
      const bar = (await page.locator(".shell-bar").boundingBox())!;
      for (const toast of await toasts(page).all()) {
        const box = (await toast.boundingBox())!;
        // Top of the window (below the phone's bar), never over the sidebar, its account corner or the bar.
        expect(box.y).toBeLessThan(viewport.height / 2);
        expect(overlaps(box, bar), `a toast lies over the navigation: ${JSON.stringify(box)}`).toBe(false);
        if (!phone) expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
      }
      // The phone's open Menu drawer lies over the toasts: its links take the clicks.
      if (phone) {
        await page.getByText("Menu", { exact: true }).click();
        const logout = page.getByRole("region", { name: "Account" }).getByRole("button", { name: "Logout" });
        await logout.scrollIntoViewIfNeeded();
        const box = (await logout.boundingBox())!;
        const hit = await page.evaluate(
          ([x, y]) => !!document.elementFromPoint(x, y)?.closest(".shell-account"),
          [box.x + box.width / 2, box.y + box.height / 2],
        );
        expect(hit).toBe(true);
      }
    });

    test("each toast has a close button and waits while hovered or focused", async ({ page }) => {
      await signUpAndLogIn(page, "toast-close");
      await page.goto("/dashboard");
      const welcome = toasts(page).filter({ hasText: "Welcome back, Free user!" });
      await expect(welcome).toBeVisible();
      await settled(page);
      await countingDown(welcome);
      // Hovered: its countdown (the dashboard's 3 s) stops.
      const box = (await welcome.boundingBox())!;
      await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
      await held(page, welcome);
      // The pointer leaves: it closes on its own.
      await page.mouse.move(viewport.width / 2, viewport.height - 5);
      await expect(welcome).toHaveCount(0, { timeout: 8000 });
      // Focus inside a toast holds it too.
      await page.getByRole("button", { name: "Pro", exact: true }).click();
      const pro = toasts(page).filter({ hasText: "Pro Plan Activated!" });
      await expect(pro).toBeVisible();
      // After its entrance (whose end sets a toast going).
      await settled(page);
      await countingDown(pro);
      await pro.getByRole("button", { name: "Close notification" }).focus();
      await held(page, pro);
      // The close button closes it.
      await pro.getByRole("button", { name: "Close notification" }).click();
      await expect(pro).toHaveCount(0);
    });

    test("a toast whose text opens with an emoji gets no icon beside it; others keep theirs", async ({ page }) => {
      await signUpAndLogIn(page, "toast-emoji");
      await page.goto("/voices");
      await page.locator('input[type="file"]').setInputFiles(MP3);
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const uploaded = toasts(page).filter({ hasText: "✅ Upload successful!" });
      await expect(uploaded).toBeVisible();
      await expect(uploaded.locator(".Toastify__toast-icon")).toHaveCount(0);
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Pro", exact: true }).click();
      const plan = toasts(page).filter({ hasText: "Pro Plan Activated!" });
      await expect(plan).toBeVisible();
      await expect(plan.locator(".Toastify__toast-icon")).toHaveCount(1);
    });

    test("Account is a named item of the account corner", async ({ page }) => {
      await signUpAndLogIn(page, "account-item");
      await page.goto("/create");
      if (phone) await page.getByText("Menu", { exact: true }).click();
      const item = page.getByRole("region", { name: "Account" }).getByRole("link", { name: "Account", exact: true });
      await expect(item).toBeVisible();
      await item.click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    });
  });
}

for (const height of [720, 800]) {
  test(`at 1280x${height} the account corner is whole in the window on every tool page, no scrolling`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height });
    await signUpAndLogIn(page, "corner");
    for (const screen of ["/dashboard", "/create", "/assistant", "/voices", "/library", "/projects", "/account"]) {
      await page.goto(screen);
      const corner = page.getByRole("region", { name: "Account" });
      // The dashboard's header has the theme toggle: its corner has none.
      const theme = corner.getByRole("button", { name: /^Switch to (dark|light) theme$/ });
      await expect(theme).toHaveCount(screen === "/dashboard" ? 0 : 1);
      for (const control of [
        corner.getByRole("link", { name: "Account", exact: true }),
        ...(screen === "/dashboard" ? [] : [theme]),
        corner.getByRole("button", { name: "Logout" }),
        corner.getByText("Plan:"),
      ])
        await expect(control, screen).toBeInViewport({ ratio: 1 });
      const box = (await corner.boundingBox())!;
      expect(box.y + box.height, screen).toBeLessThanOrEqual(height);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // The sidebar is the window's height; the navigation's last link is reached by its own scroll.
      const sidebar = (await page.locator(".shell-bar").boundingBox())!;
      expect(sidebar.height, screen).toBeLessThanOrEqual(height);
      const last = page.getByRole("navigation", { name: "Studio" }).getByRole("link").last();
      await last.scrollIntoViewIfNeeded();
      await expect(last).toBeInViewport();
      await expect(corner.getByRole("button", { name: "Logout" })).toBeInViewport({ ratio: 1 });
    }
  });
}
