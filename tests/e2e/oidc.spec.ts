import { test as base, expect } from "../support/e2e-test";
import { startOidcProvider, startSsoApp, SSO_NAME } from "../support/oidc";
import { uniqueEmail } from "../support/e2e-session";

/**
 * Decision 0048, single sign-on: the round trip from the Login screen's "Sign in with …" link through a
 * real OpenID provider (oidc-provider on a loopback port, tests/support/oidc-provider.mjs) and back to
 * the dashboard, with JavaScript off and on, on a desktop and a phone. The shared e2e server has no
 * SSO settings, so each worker starts its own: the provider in a process of its own, and the
 * production build with OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME pointing at it.
 * The app is opened as http://localhost (a secure context: its Secure cookies work over http), the
 * provider as http://127.0.0.1: another site, as a real provider is.
 */
const test = base.extend<object, { sso: { appUrl: string } }>({
  sso: [
    // Playwright reads a fixture's first argument as the fixtures it depends on: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const provider = await startOidcProvider();
      const app = await startSsoApp(provider);
      try {
        await use({ appUrl: `http://localhost:${app.port}` });
      } finally {
        await app.stop();
        await provider.stop();
      }
    },
    // A provider and a production server to start: more than a test's 30 s on a busy machine.
    { scope: "worker", timeout: 90_000 },
  ],
});

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
];

for (const viewport of VIEWPORTS) {
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`${viewport.width}x${viewport.height}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ viewport, javaScriptEnabled });

      test(`"Sign in with ${SSO_NAME}" on the Login screen goes through the provider to the dashboard`, async ({
        page,
        sso,
      }) => {
        const email = uniqueEmail("sso-e2e");
        await page.goto(`${sso.appUrl}/login`);
        // Beside the form in docs/screens.md, which stays as it was.
        await expect(page.getByRole("form", { name: "Login" })).toBeVisible();
        await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
        const link = page.getByRole("link", { name: `Sign in with ${SSO_NAME}` });
        await expect(link).toBeVisible();
        // Nothing scrolls sideways, on the phone either.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await link.click();

        await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
        await page.getByLabel("Email").fill(email);
        await page.getByRole("button", { name: "Sign in" }).click();

        await expect(page).toHaveURL(`${sso.appUrl}/dashboard`);
        await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
        await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
        // The same session as a password login: HttpOnly, so page scripts never see it.
        const cookies = await page.context().cookies(sso.appUrl);
        expect(cookies.find((cookie) => cookie.name === "__Host-session")).toMatchObject({
          httpOnly: true,
          secure: true,
          sameSite: "Lax",
        });
        expect(cookies.find((cookie) => cookie.name === "__Host-oidc")).toBeUndefined();
      });

      test("an unverified email comes back to the Login screen with the reason, signed out", async ({ page, sso }) => {
        const email = uniqueEmail("unverified-e2e");
        await page.goto(`${sso.appUrl}/login?redirectTo=%2Fprojects`);
        await page.getByRole("link", { name: `Sign in with ${SSO_NAME}` }).click();
        await page.getByLabel("Email").fill(email);
        await page.getByRole("button", { name: "Sign in" }).click();

        await expect(page).toHaveURL(`${sso.appUrl}/login?redirectTo=%2Fprojects`);
        // With JavaScript the reason is both toasted and said in the app's alert, the one that waits to be read.
        const where = javaScriptEnabled ? page.getByRole("alertdialog") : page;
        await expect(
          where.getByText(
            `${SSO_NAME} has not verified your email address ${email}. Verify it there, then sign in again.`,
          ),
        ).toBeVisible();
        await expect(page.getByRole("link", { name: `Sign in with ${SSO_NAME}` })).toBeVisible();
        await page.goto(`${sso.appUrl}/dashboard`);
        await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
      });
    });
  }
}

test("Cancel at the provider comes back to the Login screen saying so", async ({ page, sso }) => {
  await page.goto(`${sso.appUrl}/login`);
  await page.getByRole("link", { name: `Sign in with ${SSO_NAME}` }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(`${sso.appUrl}/login`);
  await expect(page.getByRole("alertdialog").getByText(`Sign-in with ${SSO_NAME} was cancelled.`)).toBeVisible();
});

test.describe("the Register screen, JavaScript off, 375x667", () => {
  test.use({ viewport: { width: 375, height: 667 }, javaScriptEnabled: false });

  test(`"Sign up with ${SSO_NAME}" beside the form in docs/screens.md makes the account through the provider`, async ({
    page,
    sso,
  }) => {
    const email = uniqueEmail("sso-signup-e2e");
    await page.goto(`${sso.appUrl}/register`);
    await expect(page.getByRole("form", { name: "Register" })).toBeVisible();
    const link = page.getByRole("link", { name: `Sign up with ${SSO_NAME}` });
    await expect(link).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await link.click();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${sso.appUrl}/dashboard`);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  });
});
