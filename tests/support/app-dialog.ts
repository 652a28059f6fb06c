// The app's own confirmation and alert (app/components/shell/app-dialog-host.tsx) as a test meets it: a modal
// alertdialog named by its question, the focus on Cancel (on OK for an alert).
import { expect, type Page } from "@playwright/test";

/** The app's dialog asking `question` (exact text, or a pattern). */
export const appDialog = (page: Page, question: string | RegExp) =>
  page.locator("dialog.app-dialog").and(page.getByRole("alertdialog", { name: question, exact: true }));

/** Answers the app's question with `button` ("Delete", "Cancel", "Revoke"...), after checking it asks. */
export async function answerAppDialog(page: Page, question: string | RegExp, button: string) {
  const dialog = appDialog(page, question);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
  await dialog.getByRole("button", { name: button, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** The app's alert saying `message`, dismissed with OK. */
export async function dismissAppAlert(page: Page, message: string) {
  const dialog = appDialog(page, message);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "OK", exact: true })).toBeFocused();
  await dialog.getByRole("button", { name: "OK", exact: true }).click();
  await expect(dialog).toHaveCount(0);
}
