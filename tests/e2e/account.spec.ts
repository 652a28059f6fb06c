import { expect, hydrated, test, type Browser, type Page } from "../support/e2e-test";
import { answerAppDialog } from "../support/app-dialog";
import { PASSWORD, signUpAndLogIn } from "../support/e2e-session";

/**
 * The account screen (decision 0047) at both sizes, with JavaScript off and on: reached from the shell,
 * the password changed (other sessions signed out, this one stays), a session seen and signed out
 * (a second browser signed in), a token made (shown once), used against /api and revoked; the
 * password change's "Also revoke API tokens" box, checked by default.
 */
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
];
const NEW_PASSWORD = "a brand new passphrase";

/** A second browser (its own cookies) signed in as the same person: another session. */
async function secondBrowser(browser: Browser, baseURL: string | undefined, email: string, password = PASSWORD) {
  const context = await browser.newContext({ baseURL });
  const login = await context.request.post("/login", { form: { email, password }, maxRedirects: 0 });
  expect(login.status()).toBe(302);
  return context;
}

/** Whether a browser's session still opens the API. */
async function signedIn(context: { request: { get: (url: string) => Promise<{ status: () => number }> } }) {
  return (await context.request.get("/api/auth/me")).status() === 200;
}

/** Revoke and Sign out ask first: in the app's dialog, or without JavaScript on the page's panel. */
async function confirmOn(page: Page, javaScriptEnabled: boolean, question: string | RegExp, button: string) {
  if (javaScriptEnabled) return answerAppDialog(page, question, button);
  const panel = page.getByRole("alertdialog", { name: question });
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: button, exact: true }).click();
}

for (const javaScriptEnabled of [false, true]) {
  for (const viewport of VIEWPORTS) {
    const where = `JavaScript ${javaScriptEnabled ? "on" : "off"}, ${viewport.width}x${viewport.height}`;
    test.describe(`account screen (${where})`, () => {
      test.use({ javaScriptEnabled, viewport });

      const open = async (page: Page) => {
        await page.goto("/account");
        await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
        if (javaScriptEnabled) await hydrated(page);
      };

      test("is reached from the shell's account area", async ({ page }) => {
        const { email } = await signUpAndLogIn(page, "account-shell");
        await page.goto("/dashboard");
        if (viewport.width < 960) await page.getByText("Menu", { exact: true }).click();
        await page.getByRole("link", { name: email }).click();
        await expect(page).toHaveURL(/\/account$/);
        await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
        await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
        await expect(page.getByTestId("ai-usage")).toContainText("AI requests today: 0");
        await expect(page.getByTestId("storage-meter")).toBeVisible();
      });

      test("changes the password: a wrong current one is refused beside its field, then the other session ends and this one stays", async ({
        page,
        browser,
        baseURL,
      }) => {
        // Three slow hashes (argon2id: the wrong try, the change, the new sign-in) and three pages: room for a loaded machine.
        test.slow();
        const { email } = await signUpAndLogIn(page, "account-password");
        const other = await secondBrowser(browser, baseURL, email);
        await open(page);
        const form = page.getByRole("region", { name: "Password" });
        await form.getByLabel("Current password").fill("not my password");
        await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
        await form.getByLabel("Confirm new password").fill(NEW_PASSWORD);
        await form.getByRole("button", { name: "Change password" }).click();
        await expect(form.getByText("Your current password is incorrect.")).toBeVisible();
        await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
        expect(await signedIn(other)).toBe(true);

        await form.getByLabel("Current password").fill(PASSWORD);
        await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
        await form.getByLabel("Confirm new password").fill(NEW_PASSWORD);
        await form.getByRole("button", { name: "Change password" }).click();
        await expect(page.getByText("Password changed. 1 other session was signed out.").first()).toBeVisible();
        expect(await signedIn(other)).toBe(false);
        // This one goes on: the page reloads signed in, with one session left.
        await page.reload();
        await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
        await expect(page.getByTestId("session")).toHaveCount(1);
        // The new password signs in.
        await (await secondBrowser(browser, baseURL, email, NEW_PASSWORD)).close();
        await other.close();
      });

      test("the password change also revokes API tokens unless its box (checked by default) is unticked", async ({
        page,
        request,
      }) => {
        // Two password changes, each a slow hash (argon2id) and a page: room for a loaded machine.
        test.slow();
        await signUpAndLogIn(page, "account-password-tokens");
        const made = await page.request.post("/api/account/tokens", { data: { name: "Nightly backup" } });
        expect(made.status()).toBe(201);
        const { token } = await made.json();
        const works = async () =>
          (await request.get("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status() === 200;
        const change = async (from: string, to: string, revoke: boolean) => {
          await open(page);
          const form = page.getByRole("region", { name: "Password" });
          const box = form.getByRole("checkbox", { name: "Also revoke API tokens" });
          await expect(box).toBeChecked();
          if (!revoke) await box.uncheck();
          await form.getByLabel("Current password").fill(from);
          await form.getByLabel("New password", { exact: true }).fill(to);
          await form.getByLabel("Confirm new password").fill(to);
          await form.getByRole("button", { name: "Change password" }).click();
        };

        await change(PASSWORD, NEW_PASSWORD, false);
        await expect(page.getByText("Password changed. 0 other sessions were signed out.").first()).toBeVisible();
        expect(await works()).toBe(true);
        await expect(page.getByText(/API tokens? (was|were) revoked/)).toHaveCount(0);
        await expect(page.getByTestId("api-token")).toHaveCount(1);

        await change(NEW_PASSWORD, `${NEW_PASSWORD} again`, true);
        await expect(
          page.getByText("Password changed. 0 other sessions were signed out. 1 API token was revoked.").first(),
        ).toBeVisible();
        expect(await works()).toBe(false);
        await page.goto("/account");
        await expect(page.getByTestId("api-token")).toHaveCount(0);
      });

      test("lists the sessions and signs another one out", async ({ page, browser, baseURL }) => {
        const { email } = await signUpAndLogIn(page, "account-sessions");
        const other = await secondBrowser(browser, baseURL, email);
        await open(page);
        const sessions = page.getByTestId("session");
        await expect(sessions).toHaveCount(2);
        await expect(sessions.filter({ hasText: "This device" })).toHaveCount(1);
        await expect(sessions.first()).toContainText("Chrome on Linux");
        const another = sessions.filter({ hasNotText: "This device" });
        await another.getByRole("button", { name: /^Sign out/ }).click();
        await confirmOn(page, javaScriptEnabled, /^Sign out “.+”\?$/, "Sign out");
        await expect(page.getByTestId("session")).toHaveCount(1);
        await expect(page.getByText("Session signed out").first()).toBeVisible();
        expect(await signedIn(other)).toBe(false);
        expect(await signedIn(page.context())).toBe(true);
        await other.close();
      });

      test("log out everywhere else ends every other session", async ({ page, browser, baseURL }) => {
        const { email } = await signUpAndLogIn(page, "account-others");
        const others = [await secondBrowser(browser, baseURL, email), await secondBrowser(browser, baseURL, email)];
        await open(page);
        await expect(page.getByTestId("session")).toHaveCount(3);
        await page.getByRole("button", { name: "Log out everywhere else" }).click();
        await expect(page.getByTestId("session")).toHaveCount(1);
        for (const other of others) {
          expect(await signedIn(other)).toBe(false);
          await other.close();
        }
        expect(await signedIn(page.context())).toBe(true);
      });

      test("makes a token (shown once), which opens /api until it is revoked", async ({ page, request }) => {
        await signUpAndLogIn(page, "account-token");
        await open(page);
        const tokens = page.getByRole("region", { name: "Personal API tokens" });
        await tokens.getByRole("button", { name: "Create token" }).click();
        if (!javaScriptEnabled) {
          // The browser's own check stops a blank name first with JavaScript too; without it the server says so.
          await expect(tokens.getByLabel("Token name")).toHaveJSProperty("validity.valueMissing", true);
        }
        await tokens.getByLabel("Token name").fill("Nightly backup");
        await tokens.getByRole("button", { name: "Create token" }).click();
        const field = tokens.getByLabel("New token");
        await expect(field).toBeVisible();
        const token = await field.inputValue();
        expect(token).toMatch(/^cas_/);
        if (javaScriptEnabled) {
          await tokens.getByRole("button", { name: "Copy" }).click();
          await expect(tokens.getByRole("button", { name: "Copied" })).toBeVisible();
        } else {
          await expect(tokens.getByRole("button", { name: "Copy" })).toHaveCount(0);
        }
        await expect(page.getByTestId("api-token")).toHaveCount(1);
        await expect(page.getByTestId("api-token")).toContainText("Nightly backup");

        // Another client, no cookies: the token alone.
        const me = await request.get("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });
        expect(me.status()).toBe(200);
        const content = await request.get("/api/content", { headers: { Authorization: `Bearer ${token}` } });
        expect(content.status()).toBe(200);

        // Shown once: a fresh look at the page has the name, not the token.
        await page.goto("/account");
        await expect(page.getByLabel("New token")).toHaveCount(0);
        expect(await page.content()).not.toContain(token);
        await expect(page.getByTestId("api-token")).toContainText("last used");
        if (javaScriptEnabled) await hydrated(page);

        await page.getByRole("button", { name: "Revoke Nightly backup" }).click();
        await confirmOn(page, javaScriptEnabled, "Revoke “Nightly backup”?", "Revoke");
        await expect(page.getByTestId("api-token")).toHaveCount(0);
        await expect(page.getByText("Token revoked").first()).toBeVisible();
        expect((await request.get("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(
          401,
        );
      });
    });
  }
}
