import { expect, hydrated, test, type Page } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";

/**
 * Per-person AI limits on the screens (decision 0038): once a person has used the minute's AI requests
 * (AI_REQUESTS_PER_MINUTE, 20 by default, as the e2e server runs), the assistant screen says docs/screens.md
 * failure text and the reason, which says when to try again, with JavaScript off (the form's action)
 * and on (the API's 429).
 */
async function useTheMinute(page: Page) {
  const origin = new URL(page.url()).origin;
  for (let i = 0; i < 20; i++) {
    const answer = await page.request.post("/api/assistant/message", {
      data: { message: `hello ${i}` },
      headers: { Origin: origin },
    });
    expect(answer.status()).toBe(200);
  }
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the assistant's form says when to try again once the minute's AI requests are used", async ({ page }) => {
    await signUpAndLogIn(page, "ai-limit-nojs");
    await page.goto("/assistant");
    await useTheMinute(page);
    await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
    await page.getByRole("button", { name: "Ask" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Something went wrong.");
    await expect(alert).toContainText(/Too many AI requests: at most 20 a minute\. Try again in \d+ seconds?\./);
  });
});

test("with JavaScript on, the assistant says when to try again once the minute's AI requests are used", async ({
  page,
}) => {
  await signUpAndLogIn(page, "ai-limit-js");
  await page.goto("/assistant");
  await expect(page.getByLabel("Voice").locator("option").first()).toHaveText("English (America)");
  await useTheMinute(page);
  await page.getByLabel("Auto-Speak").uncheck();
  await page.getByLabel("Your question").fill("How do I use the Drawing Pad?");
  await page.getByRole("button", { name: "Ask" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Something went wrong.");
  await expect(alert).toContainText(/Try again in \d+ seconds?\./);
});

test.describe("on a German screen", () => {
  // Chromium's own Accept-Language (from the locale) replaces an extra header's on navigations: both say German.
  test.use({ locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE" } });
  const REASON = /Zu viele KI-Anfragen: höchstens 20 pro Minute\. Versuche es in \d+ Sekunden? noch einmal\./;
  const ask = async (page: Page) => {
    await page.getByLabel("Deine Frage").fill("Wie benutze ich das Zeichenbrett?");
    await page.getByRole("button", { name: "Fragen" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Etwas ist schiefgelaufen.");
    await expect(alert).toContainText(REASON);
  };

  test.describe("with JavaScript off", () => {
    test.use({ javaScriptEnabled: false });

    test("the form's answer gives the reason in German, from the refusal", async ({ page }) => {
      await signUpAndLogIn(page, "ai-limit-de-nojs");
      await page.goto("/assistant");
      await useTheMinute(page);
      await ask(page);
    });
  });

  test("with JavaScript on, the API's English reason is said in German", async ({ page }) => {
    await signUpAndLogIn(page, "ai-limit-de-js");
    await page.goto("/assistant");
    await hydrated(page);
    await useTheMinute(page);
    await page.getByLabel("Automatisch vorlesen").uncheck();
    await ask(page);
  });
});
