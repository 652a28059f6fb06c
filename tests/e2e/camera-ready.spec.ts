import { expect, test } from "../support/e2e-test";
import { signUpAndLogIn } from "../support/e2e-session";
import { tapCapture } from "../support/e2e-media";

/**
 * A tap on Capture the instant it can be pressed. In the page, from before its first byte: every
 * change to the document is looked at (a MutationObserver runs right after each change, before the
 * next task), the button's label is noted, and the button is clicked as soon as it is enabled. What
 * it said before then, and every alert, are kept for the test.
 */
function tapAtOnce() {
  const state = { labels: [] as string[], alerts: [] as string[], tapped: false };
  (window as unknown as { __capture: typeof state }).__capture = state;
  window.alert = (message?: unknown) => void state.alerts.push(String(message));
  const observer = new MutationObserver(() => {
    const button = document.querySelector<HTMLButtonElement>("button.capture-button");
    if (!button || state.tapped) return;
    const label = button.textContent?.trim() ?? "";
    if (state.labels.at(-1) !== label) state.labels.push(label);
    if (button.disabled) return;
    state.tapped = true;
    observer.disconnect();
    button.click();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

test("camera: Capture waits, saying so, until the preview has a picture; a tap at once takes the photo", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signUpAndLogIn(page, "camera-ready");
  await page.addInitScript(tapAtOnce);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const download = page.waitForEvent("download");
    await page.goto("/camera");
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __capture: { tapped: boolean } }).__capture.tapped))
      .toBe(true);
    expect((await download).suggestedFilename(), `attempt ${attempt}`).toMatch(/\.png$/);
    const { labels, alerts } = await page.evaluate(
      () => (window as unknown as { __capture: { labels: string[]; alerts: string[] } }).__capture,
    );
    expect(alerts, `attempt ${attempt}`).toEqual([]);
    await expect(page.getByText("Camera not ready yet.")).toHaveCount(0);
    // Until the first frame was drawn, the (disabled) button said why it waited.
    expect(labels[0], `attempt ${attempt}`).toBe("Starting camera…");
  }
});

test("camera V2: deleting a capture with the keyboard moves the focus to the next one's Delete", async ({ page }) => {
  test.setTimeout(45_000);
  await signUpAndLogIn(page, "camera-focus");
  await page.goto("/camera-v2");
  const capture = page.getByRole("button", { name: "Capture" });
  await tapCapture(page, () => capture.click());
  await expect(page.getByTestId("gallery-item")).toHaveCount(1);
  await tapCapture(page, () => capture.click());
  await expect(page.getByTestId("gallery-item")).toHaveCount(2);
  const deletes = page.getByTestId("gallery-item").getByRole("button", { name: /^Delete / });
  const second = (await deletes.nth(1).getAttribute("aria-label"))!;
  await deletes.first().focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("gallery-item")).toHaveCount(1);
  await expect(page.getByRole("button", { name: second, exact: true })).toBeFocused();
  // The only one left: the gallery's heading.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("gallery-item")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /Gallery/ })).toBeFocused();
});
