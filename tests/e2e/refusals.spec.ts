import { expect, test } from "../support/e2e-test";
import { PASSWORD, uniqueEmail } from "../support/e2e-session";

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the login screen says why it refuses (429): too many failed attempts, try again later", async ({ page }) => {
    const email = uniqueEmail("refused");
    expect((await page.request.post("/api/auth/register", { data: { email, password: PASSWORD } })).status()).toBe(201);
    // The account's failure budget (10 in 15 minutes; this machine's own address is not budgeted).
    for (let i = 0; i < 10; i++) {
      expect(
        (await page.request.post("/api/auth/login", { data: { email, password: "wrong password" } })).status(),
      ).toBe(401);
    }
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/login" && response.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Login" }).click();
    expect((await answer).status()).toBe(429);
    await expect(page.getByRole("alert")).toHaveText(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
  });
});

test("the feedback screen shows the failure text in docs/screens.md#error-messages and the reason when the API refuses (429)", async ({
  page,
}) => {
  const detail = "Too many feedback messages from your address. Try again in 60 minutes.";
  await page.route("**/api/feedback", (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      headers: { "Retry-After": "3600" },
      body: JSON.stringify({ detail }),
    }),
  );
  await page.goto("/feedback");
  await page.getByLabel("Name").fill("Ada");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Message").fill("Hello again");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("alert")).toHaveText(`⚠️ Something went wrong. Please try again. ${detail}`);
  await expect(page.getByLabel("Message")).toHaveValue("Hello again");
});
