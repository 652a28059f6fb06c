import { expect, test } from "../support/e2e-test";
import { PASSWORD, signUpAndLogIn, uniqueEmail } from "../support/e2e-session";

test.describe("register", () => {
  test("shows the three messages, then succeeds and goes to /login after 1.5 s", async ({ page }) => {
    await page.goto("/register");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("⚠️ Please fill in all fields.");

    const email = uniqueEmail("reg");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill("something else");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("❌ Passwords do not match.");

    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("status")).toContainText("Account created");
    const shownAt = Date.now();
    await page.waitForURL("**/login");
    expect(Date.now() - shownAt).toBeGreaterThan(1000);

    // The same email again.
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("⚠️ That email is already registered.");
  });

  test("server-side rules show as Registration failed", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Email").fill(uniqueEmail());
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Confirm Password").fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert")).toHaveText("❌ Registration failed: Password must be at least 8 characters");
  });
});

test.describe("login", () => {
  test("a failure alerts (the app's alert); success goes to the dashboard", async ({ page }) => {
    const email = uniqueEmail("login");
    await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
    await page.goto("/login");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Login" }).click();
    const alert = page.getByRole("alertdialog");
    await expect(alert.locator("p").first()).toHaveText("Login failed. Please check your credentials.");
    await alert.getByRole("button", { name: "OK" }).click();
    await expect(alert).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    // The session cookie is HttpOnly: page scripts cannot read the tokens.
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/session=/);
  });

  test("after a successful login the page says so (never the signed-in variant) and opens the dashboard", async ({
    page,
  }) => {
    const email = uniqueEmail("success");
    await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    // Record whether the "You are logged in" variant ever renders during the 300 ms before the redirect.
    await page.evaluate(() => {
      const seen = window as unknown as { sawSignedInVariant: boolean };
      seen.sawSignedInVariant = false;
      new MutationObserver(() => {
        if (document.body.textContent?.includes("You are logged in")) seen.sawSignedInVariant = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("status")).toHaveText("Logged in. Opening your dashboard...");
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { sawSignedInVariant: boolean }).sawSignedInVariant)).toBe(
      false,
    );
  });

  test("signed in, /login offers Logout, Return to Dashboard and Go Home; Logout ends the session", async ({
    page,
  }) => {
    await signUpAndLogIn(page);
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");
    await page.getByRole("link", { name: "Return to Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto("/login");
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
  });

  test("a protected page without a session goes to /login and back after logging in", async ({ page }) => {
    const email = uniqueEmail("back");
    await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } });
    await page.goto("/dashboard?edit=1");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/dashboard?edit=1");
  });
});

test("signed in, /login offers Logout in colours that read in both themes (WCAG AA, 4.5:1)", async ({ page }) => {
  await signUpAndLogIn(page, "contrast");
  const contrastOfLogout = () =>
    page.getByRole("button", { name: "Logout" }).evaluate((button) => {
      const channels = (colour: string) =>
        colour
          .match(/[\d.]+/g)!
          .slice(0, 3)
          .map(Number);
      const luminance = (colour: string) => {
        const [r, g, b] = channels(colour).map((value) => {
          const c = value / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const style = getComputedStyle(button);
      const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
      return (light + 0.05) / (dark + 0.05);
    });
  for (const theme of ["dark", "light"]) {
    // The theme is chosen on the dashboard (it is kept in the preferences cookie).
    await page.goto("/dashboard");
    if ((await page.locator("html").getAttribute("data-theme")) !== theme) {
      const saved = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/preferences"));
      await page.getByRole("button", { name: /^Switch to (dark|light) theme$/ }).click();
      await saved;
    }
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    expect(await contrastOfLogout(), theme).toBeGreaterThanOrEqual(4.5);
  }
});
