import { expect, test, type Browser } from "../support/e2e-test";
import { launchServer } from "../harness/launch.mjs";
import { inviteCodeOf, runAdmin } from "../support/admin";
import { PASSWORD, uniqueEmail } from "../support/e2e-session";

/**
 * REGISTRATION=invite and closed (decision 0046) on the Register screen, on a desktop and a phone, with
 * JavaScript on and off: an invitation link from `npm run admin -- invite` registers (and the person
 * logs in); /register without one says an invitation is needed; on a closed studio it says registration
 * is closed. Two servers of their own (the shared e2e server is open), started once for the file.
 */
const NEEDED =
  "An invitation is needed to register here. Ask the person who runs this studio for an invitation link; each link works once and expires.";
const CLOSED = "Registration is closed on this studio. Ask the person who runs it for an account.";
const SECRET = "e2e-session-secret-that-is-long-enough-0123456789";

test.describe.configure({ mode: "serial" });

type Server = Awaited<ReturnType<typeof launchServer>>;
let invited: Server;
let closed: Server;
test.beforeAll(async () => {
  [invited, closed] = await Promise.all([
    launchServer({ dataDirPrefix: "studio-e2e-invite-", env: { REGISTRATION: "invite", SESSION_SECRET: SECRET } }),
    launchServer({ dataDirPrefix: "studio-e2e-closed-", env: { REGISTRATION: "closed", SESSION_SECRET: SECRET } }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([invited?.stop(), closed?.stop()]);
});

const VIEWPORTS = [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 375, height: 667 } },
];

async function pageOn(
  browser: Browser,
  server: Server,
  viewport: { width: number; height: number },
  javaScriptEnabled: boolean,
) {
  // localhost: a secure context, so the session cookie works over http.
  const context = await browser.newContext({ baseURL: `http://localhost:${server.port}`, viewport, javaScriptEnabled });
  return { context, page: await context.newPage() };
}

for (const { name, viewport } of VIEWPORTS) {
  for (const javaScriptEnabled of [true, false]) {
    const label = `${name}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;

    test(`invite mode (${label}): an invitation link registers; without one the screen says an invitation is needed`, async ({
      browser,
    }) => {
      test.setTimeout(60_000);
      const { context, page } = await pageOn(browser, invited, viewport, javaScriptEnabled);
      const run = await runAdmin(["invite"], {
        dataDir: invited.dataDir,
        env: { REGISTRATION: "invite", PUBLIC_URL: `http://localhost:${invited.port}` },
      });
      expect(run.code, run.stderr).toBe(0);
      const link = run.stdout.trim();
      expect(link).toBe(`http://localhost:${invited.port}/register?invite=${inviteCodeOf(run)}`);

      await page.goto("/register");
      await expect(page.getByRole("alert")).toHaveText(NEEDED);
      await expect(page.getByRole("form", { name: "Register" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

      await page.goto(link);
      const email = uniqueEmail(`invited-${name}`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create Account" }).click();
      await expect(page.getByRole("status")).toContainText("Account created");
      await page.waitForURL("**/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/dashboard");

      // The link worked once: opened again, it is refused like none.
      await context.clearCookies();
      await page.goto(link);
      await expect(page.getByRole("alert")).toHaveText(NEEDED);
      await context.close();
    });

    test(`closed mode (${label}): the screen says registration is closed instead of a form`, async ({ browser }) => {
      const { context, page } = await pageOn(browser, closed, viewport, javaScriptEnabled);
      await page.goto("/register");
      await expect(page.getByRole("heading", { name: "Create Account" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText(CLOSED);
      await expect(page.getByRole("alert")).toBeInViewport();
      await expect(page.getByLabel("Email")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Create Account" })).toHaveCount(0);
      await context.close();
    });
  }
}
