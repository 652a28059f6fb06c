import { expect, test, type Locator, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

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

/** Everything of `controls` that is shown, checked against the toasts' boxes; how many were checked. */
async function expectNoToastCovers(page: Page, controls: Locator[], what: string) {
  const toastBoxes = await Promise.all(
    (await page.locator(".Toastify__toast").all()).map(async (toast) => (await toast.boundingBox())!),
  );
  let checked = 0;
  for (const control of controls) {
    for (const element of await control.all()) {
      if (!(await element.isVisible())) continue;
      const controlBox = (await element.boundingBox())!;
      for (const box of toastBoxes) {
        expect(
          overlaps(box, controlBox),
          `${what}: a toast covers ${(await element.getAttribute("aria-label")) ?? (await element.textContent())}`,
        ).toBe(false);
      }
      checked++;
    }
  }
  return checked;
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test(`the welcome toast covers none of the header's controls, the search box or a row's Delete, and follows the theme at ${viewport.width}x${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    for (const theme of ["dark", "light"] as const) {
      // The welcome shows once per sign-in: each theme's check signs a new person in.
      await signUpAndLogIn(page, "toasts");
      for (const title of ["Harbour", "Gulls", "Red boat", "Tide tables"])
        await page.request.post("/api/content", { data: { title, body: "" } });
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
      const controls = [
        page.getByRole("link", { name: /Edit mode/ }),
        page.getByRole("button", { name: "Logout" }),
        page.getByRole("button", { name: /^Switch to (dark|light) theme$/ }),
        page.getByRole("searchbox", { name: "Search your content" }),
      ];
      expect(await expectNoToastCovers(page, controls, `${theme}, top`)).toBeGreaterThanOrEqual(2);
      // Scrolled to the end, the page's last controls (the rows' Delete, Export) end above the toasts:
      // the page has room for them.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const deletes = page.getByRole("button", { name: /^Delete / });
      await expect(deletes.last()).toBeInViewport();
      await expect(page.getByRole("link", { name: "Export my data" })).toBeInViewport();
      expect(
        await expectNoToastCovers(page, [deletes, page.getByRole("link", { name: "Export my data" })], `${theme}, end`),
      ).toBeGreaterThanOrEqual(2);
      // Dark toasts in dark mode, light ones in light mode.
      const background = await toast.evaluate((element) => getComputedStyle(element).backgroundColor);
      if (theme === "dark") expect(luminance(background), background).toBeLessThan(0.1);
      else expect(luminance(background), background).toBeGreaterThan(0.6);
    }
  });

  const atOnce = viewport.width < 600 ? 2 : 3;
  test(`at most ${atOnce} toasts show at once at ${viewport.width}x${viewport.height}; the rest wait their turn`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signUpAndLogIn(page, "toast-limit");
    await page.goto("/dashboard");
    await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
    let most = 0;
    const sample = async () => (most = Math.max(most, await page.locator(".Toastify__toast").count()));
    // Three plan toasts raised while the welcome still shows: four in all.
    for (const plan of ["Pro", "Ultimate", "Free"]) {
      await page.getByRole("button", { name: plan, exact: true }).click();
      await expect(page.getByTestId("current-plan")).toHaveText(plan);
      await expect.poll(async () => (await sample(), page.locator(".Toastify__toast").count())).toBeGreaterThan(0);
    }
    // Each one is shown in its turn (none is dropped), never more than the limit together.
    for (const text of ["Pro Plan Activated!", "Ultimate Plan Activated!", "Free Plan Activated!"]) {
      await expect
        .poll(async () => (await sample(), page.locator(".Toastify__toast").filter({ hasText: text }).count()), {
          timeout: 10_000,
        })
        .toBe(1);
    }
    expect(most).toBeGreaterThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(atOnce);
  });
}

/**
 * What lies under the toasts: every interactive control (button, link, field, summary) found under a
 * point of a toast's box (a 6 px grid), as the browser hit-tests it (so what the sidebar's own scroll
 * clips away is not there). Empty when no toast covers a control.
 */
function controlsUnderToasts(page: Page) {
  return page.evaluate(() => {
    const found = new Set<string>();
    for (const toast of document.querySelectorAll(".Toastify__toast")) {
      const box = toast.getBoundingClientRect();
      for (let y = box.top + 1; y < box.bottom; y += 6) {
        for (let x = box.left + 1; x < box.right; x += 6) {
          for (const element of document.elementsFromPoint(x, y)) {
            if (element.closest(".Toastify")) continue;
            const control = element.closest("button, a, input, select, textarea, summary, [role='button']");
            if (control)
              found.add(
                `${control.tagName.toLowerCase()} "${control.getAttribute("aria-label") ?? control.textContent?.trim()}"`,
              );
          }
        }
      }
    }
    return [...found];
  });
}

test("on a desktop no toast lies over a control mid-page: a long list's rows, the sidebar, the header (decision 0045)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpAndLogIn(page, "toasts-mid");
  for (let index = 1; index <= 40; index++)
    await page.request.post("/api/content", { data: { title: `Note ${index}`, body: "" } });
  // The window losing focus pauses the toasts (react-toastify's pauseOnFocusLoss): they stay for the
  // checks. After their entrance, whose end sets them going again.
  const moving = () =>
    page.evaluate(
      () =>
        document
          .getAnimations()
          .filter(
            (a) =>
              a.playState === "running" &&
              !(a.effect as KeyframeEffect).target?.classList.contains("Toastify__progress-bar"),
          ).length,
    );
  const holdToasts = async () => {
    await expect.poll(moving).toBe(0);
    await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  };
  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
  await holdToasts();
  // Three toasts at once (the desktop's most), then the list's middle on the screen: rows' Delete everywhere.
  for (const plan of ["Pro", "Ultimate"]) {
    await page.getByRole("button", { name: plan, exact: true }).click();
    await expect(page.getByText(`${plan} Plan Activated!`)).toBeVisible();
    await holdToasts();
  }
  await expect(page.locator(".Toastify__toast")).toHaveCount(3);
  await page
    .getByRole("link", { name: "Note 20", exact: true })
    .evaluate((element) => element.scrollIntoView({ block: "center" }));
  await expect.poll(moving).toBe(0);
  const deletes = page.getByRole("button", { name: /^Delete Note/ });
  let onScreen = 0;
  for (const button of await deletes.all())
    if (
      (await button.isVisible()) &&
      (await button.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }))
    )
      onScreen++;
  expect(onScreen).toBeGreaterThan(10);
  expect(await controlsUnderToasts(page)).toEqual([]);
  // Scrolled back to the top: the header's and the sidebar's controls are clear of them too.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await controlsUnderToasts(page)).toEqual([]);
  // Every link of the sidebar stays within reach while they show: its own scroll brings the last one above them.
  const logout = page.getByRole("region", { name: "Account" }).getByRole("button", { name: "Logout" });
  await logout.scrollIntoViewIfNeeded();
  await expect(logout).toBeInViewport();
  expect(await controlsUnderToasts(page)).toEqual([]);
  await expect(page.locator(".Toastify__toast")).toHaveCount(3);
});

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

test("a toast over a control gets out of the way of the pointer: faint, click-through and paused", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await signUpAndLogIn(page, "toast-peek");
  await page.goto("/dashboard");
  const toast = page.locator(".Toastify__toast").filter({ hasText: "Welcome back, Free user!" });
  await expect(toast).toBeVisible();
  await expect
    .poll(() => toast.evaluate((element) => element.getAnimations().filter((a) => a.playState === "running").length))
    .toBe(0);
  const box = (await toast.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  // What lies under the toast gets the pointer (the toast is click-through), and the toast stays while hovered.
  const hit = () => page.evaluate(([px, py]) => !!document.elementFromPoint(px, py)?.closest(".Toastify"), [x, y]);
  expect(await hit()).toBe(false);
  await expect(toast).toHaveCSS("opacity", "0.15");
  // Paused: still there after the dashboard toast's 3 s.
  await page.waitForTimeout(3500);
  await expect(toast).toBeVisible();
  // The pointer leaves: the toast is whole again and closes.
  await page.mouse.move(5, 5);
  await expect(toast).toHaveCSS("opacity", "1");
  await expect(toast).toHaveCount(0, { timeout: 8000 });
});

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

test("reduced motion: no animation or transition moves, the toast's countdown bar is hidden", async ({ page }) => {
  await signUpAndLogIn(page, "motion");
  // Without the preference, the toast slides in and its countdown bar shows (the check below can see motion).
  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
  expect((await movingThings(page)).length).toBeGreaterThan(0);
  await expect(page.locator(".Toastify__progress-bar--wrp")).toHaveAttribute("data-hidden", "false");

  await page.emulateMedia({ reducedMotion: "reduce" });
  for (const path of ["/", "/dashboard", "/aivideo", "/voices", "/camera", "/login"]) {
    await page.goto(path);
    expect(await movingThings(page), path).toEqual([]);
  }
  // The welcome shows once per sign-in: a new one raises it again.
  await signUpAndLogIn(page, "motion-again");
  await page.goto("/dashboard");
  await expect(page.getByText("Welcome back, Free user!")).toBeVisible();
  await expect(page.locator(".Toastify__progress-bar--wrp")).toHaveAttribute("data-hidden", "true");
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
  // Long enough for a few dozen frames (the rain moves a little every frame).
  await page.waitForTimeout(600);
  return (await snapshot()) !== first;
}

test("reduced motion: Camera V2's Matrix glyph rain stands still", async ({ page }) => {
  await signUpAndLogIn(page, "motion-camera");
  await stillCamera(page);
  expect(await previewChanges(page)).toBe(true);
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await previewChanges(page)).toBe(false);
});
