import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

test("feedback without signing in: success message and sound", async ({ page }) => {
  await page.addInitScript(() => {
    (window as any).__sounds = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
      (window as any).__sounds.push(this.currentSrc || (this as HTMLMediaElement).src);
      return play.call(this);
    };
  });
  await page.goto("/feedback");
  await page.getByLabel("Name").fill("Ada");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Message").fill("The matrix mode is great.");
  const posted = page.waitForRequest(
    (request) => request.url().endsWith("/api/feedback") && request.method() === "POST",
  );
  await page.getByRole("button", { name: "Submit" }).click();
  expect((await posted).postDataJSON()).toEqual({
    name: "Ada",
    email: "ada@example.com",
    message: "The matrix mode is great.",
  });
  await expect(page.getByRole("status")).toHaveText("✅ Feedback sent successfully!");
  await expect(page.getByLabel("Message")).toHaveValue("");
  expect(await page.evaluate(() => (window as any).__sounds)).toEqual([
    expect.stringContaining("/static/sounds/success.wav"),
  ]);
});

test("feedback failure shows the the text in docs/screens.md#error-messages and plays the fail sound", async ({
  page,
}) => {
  await page.addInitScript(() => {
    (window as any).__sounds = [];
    HTMLMediaElement.prototype.play = function () {
      (window as any).__sounds.push((this as HTMLMediaElement).src);
      return Promise.resolve();
    };
  });
  await page.route("**/api/feedback", (route) => route.fulfill({ status: 500, body: "{}" }));
  await page.goto("/feedback");
  await page.getByLabel("Name").fill("Ada");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Message").fill("Hello");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("alert")).toHaveText("⚠️ Something went wrong. Please try again.");
  await expect(page.getByLabel("Message")).toHaveValue("Hello");
  expect(await page.evaluate(() => (window as any).__sounds)).toEqual([
    expect.stringContaining("/static/sounds/fail.wav"),
  ]);
});

// On both viewports; without JavaScript the form posts to the screen's action, prefilled the same.
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 667 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    test("signed in: name and email start filled in and can be changed", async ({ page }) => {
      const { email } = await signUpAndLogIn(page, "feedback-known");
      await page.goto("/feedback");
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Name")).toHaveValue(email.split("@")[0]);
      await page.getByLabel("Name").fill("Ada Lovelace");
      await page.getByLabel("Email").fill("ada@example.com");
      await page.getByLabel("Message").fill("Prefilled, and mine to change.");
      const posted = page.waitForRequest(
        (request) => request.url().endsWith("/api/feedback") && request.method() === "POST",
      );
      await page.getByRole("button", { name: "Submit" }).click();
      expect((await posted).postDataJSON()).toEqual({
        name: "Ada Lovelace",
        email: "ada@example.com",
        message: "Prefilled, and mine to change.",
      });
      await expect(page.getByRole("status")).toHaveText("✅ Feedback sent successfully!");
      // Next time the name is the one last signed with.
      await page.goto("/feedback");
      await expect(page.getByLabel("Name")).toHaveValue("Ada Lovelace");
      await expect(page.getByLabel("Email")).toHaveValue(email);
    });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });
      test("signed in: name and email start filled in and the form still sends", async ({ page }) => {
        const { email } = await signUpAndLogIn(page, "feedback-nojs");
        await page.goto("/feedback");
        await expect(page.getByLabel("Email")).toHaveValue(email);
        await expect(page.getByLabel("Name")).toHaveValue(email.split("@")[0]);
        await page.getByLabel("Name").fill("Grace Hopper");
        await page.getByLabel("Message").fill("Sent without scripts.");
        await page.getByRole("button", { name: "Submit" }).click();
        await expect(page.getByText("✅ Feedback sent successfully!")).toBeVisible();
      });
    });
  });
}
